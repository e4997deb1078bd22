import Geomagnetism
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Computes the expected field at (latitude, longitude, decimal year); nil when it cannot (e.g. a
/// position the model rejects). The lead wires this to the Geomagnetism module.
public typealias FieldProvider = @Sendable (_ latitude: Double, _ longitude: Double, _ decimalYear: Double) -> ExpectedField?

/// The expected field as the cache returns it.
public struct CachedField: Sendable, Hashable {
    public var field: ExpectedField
    /// True when a refresh was due but the provider failed, so this value is older than intended.
    public var stale: Bool
}

/// Remembers the expected field and asks the provider again only after moving more than
/// `refreshDistanceMeters` or after `refreshSeconds` of wall time (the field model changes slowly in
/// both). A failed refresh keeps the old value, marked stale, and is retried after `retrySeconds`.
///
/// ```swift
/// var cache = DeclinationCache(provider: { lat, lon, year in myModel(lat, lon, year) })
/// let here = cache.field(latitude: -33.87, longitude: 151.21, wall: now)   // calls the provider
/// let same = cache.field(latitude: -33.8701, longitude: 151.21, wall: now + 1) // cached (11 m away)
/// ```
public struct DeclinationCache: Sendable {
    public var provider: FieldProvider?
    public var refreshDistanceMeters: Double
    public var refreshSeconds: Double
    public var retrySeconds: Double

    private var cached: ExpectedField?
    private var cachedLatitude = 0.0, cachedLongitude = 0.0, cachedWall = 0.0
    private var lastFailureWall: Double?
    /// How many times the provider has been called (for tests and diagnostics).
    public private(set) var providerCalls = 0

    public init(provider: FieldProvider?, refreshDistanceMeters: Double = 1000,
                refreshSeconds: Double = 86_400, retrySeconds: Double = 60) {
        self.provider = provider
        self.refreshDistanceMeters = refreshDistanceMeters
        self.refreshSeconds = refreshSeconds
        self.retrySeconds = retrySeconds
    }

    /// Forgets the cached value.
    public mutating func invalidate() {
        cached = nil
        lastFailureWall = nil
    }

    /// The expected field at a position (degrees) and wall time (Unix seconds), from the cache when it
    /// is near and recent enough, otherwise from the provider. Nil when there is neither.
    public mutating func field(latitude: Double, longitude: Double, wall: Double) -> CachedField? {
        guard latitude.isFinite, longitude.isFinite, wall.isFinite, abs(latitude) <= 90 else {
            return cached.map { CachedField(field: $0, stale: true) }
        }
        // The same position is 0 m away: no distance (and its cosine) per sample.
        if let c = cached,
           abs(wall - cachedWall) <= refreshSeconds,
           (latitude == cachedLatitude && longitude == cachedLongitude && refreshDistanceMeters >= 0)
            || Self.distance(latitude: cachedLatitude, longitude: cachedLongitude,
                             toLatitude: latitude, longitude: longitude) <= refreshDistanceMeters {
            return CachedField(field: c, stale: false)
        }
        // A refresh is due. Do not hammer a failing provider.
        if lastFailureWall.map({ abs(wall - $0) >= retrySeconds }) ?? true {
            providerCalls += 1
            if let year = decimalYear(unixSeconds: wall), let f = provider?(latitude, longitude, year), f.isValid {
                cached = f
                cachedLatitude = latitude; cachedLongitude = longitude; cachedWall = wall
                lastFailureWall = nil
                return CachedField(field: f, stale: false)
            }
            lastFailureWall = wall
        }
        return cached.map { CachedField(field: $0, stale: true) }
    }

    /// Approximate ground distance in metres between two positions (degrees): equirectangular on a
    /// sphere of the Earth's mean radius, well within 1 % at the kilometre scale it is used for.
    ///
    /// ```swift
    /// DeclinationCache.distance(latitude: -33.87, longitude: 151.21, toLatitude: -33.86, longitude: 151.21) // ≈ 1112
    /// ```
    public static func distance(latitude lat1: Double, longitude lon1: Double,
                                toLatitude lat2: Double, longitude lon2: Double) -> Double {
        let meanLatitude = rad((lat1 + lat2) / 2)
        let dx = rad(signedDifference(lon2, lon1)) * cos(meanLatitude)
        let dy = rad(lat2 - lat1)
        let d = 6_371_008.8 * (dx * dx + dy * dy).squareRoot()
        return d.isFinite ? d : .infinity
    }
}
