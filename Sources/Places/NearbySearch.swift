import Geodesy
import Glibc

/// A place near a point: the place, the geodesic distance to the point, and the direction from the
/// place to the point ("3.2 km NE of Hoorn" has direction 45°).
public struct NearbyPlace: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A gazetteer place (its index).
        case gazetteer(Int)
        /// One of the user's places (its index in the list given).
        case user(Int)
    }

    public var place: Place
    public var source: Source
    /// Geodesic distance, metres (WGS84, Karney).
    public var distance: Double
    /// Azimuth at the place of the geodesic from the place to the point, degrees in [0, 360); nil
    /// at distance 0.
    public var direction: Double?
    /// True for a user place whose radius holds the point.
    public var isInside: Bool
}

/// Reverse geocoding: the places nearest to a point, from the gazetteer and the user's places.
///
/// ```swift
/// let search = NearbySearch(gazetteer: .builtIn, userPlaces: [])
/// let near = try search.nearest(to: GeoPoint(latitude: 52.66, longitude: 5.10), count: 1)
/// // near[0].place.name == "Hoorn", near[0].direction ≈ 60 (ENE of Hoorn)
/// ```
public struct NearbySearch: Sendable {
    public var gazetteer: Gazetteer
    public var userPlaces: [UserPlace]

    public init(gazetteer: Gazetteer = .builtIn, userPlaces: [UserPlace] = []) {
        self.gazetteer = gazetteer
        self.userPlaces = userPlaces
    }

    /// On the ellipsoid, the geodesic distance s between two points and their great-circle angle θ
    /// (geodetic coordinates put on the unit sphere) satisfy min(M, N) ≤ s/θ ≤ max(M, N), the radii
    /// of curvature: 6335.4…6399.6 km. So every place whose geodesic distance is below the k-th
    /// nearest on the sphere lies within this factor of that angle.
    static let curvatureRatio = 6_399_594.0 / 6_335_439.0
    /// Slack for rounding in the unit vectors, radians (about 6 mm).
    static let angleSlack = 1e-9

    /// The squared chord of the angle `curvatureRatio` times that of squared chord `c` (plus the
    /// slack): every place nearer by geodesic than one at chord √c is within it.
    @Sendable static func widenedChordSquared(_ c: Double) -> Double {
        let angle = 2 * asin(min(1, c.squareRoot() / 2)) * curvatureRatio + angleSlack
        let limit = 2 * sin(min(Double.pi, angle) / 2)
        return limit * limit
    }

    /// The `count` nearest places, ordered: user places whose radius holds the point (nearest
    /// first), then every other place by geodesic distance.
    public func nearest(to point: GeoPoint, count: Int) -> [NearbyPlace] {
        guard count > 0 else { return [] }
        var results: [NearbyPlace] = []
        // With the `count` nearest on the sphere, every place that may be among the `count` nearest
        // by geodesic distance: within the curvature bound of the count-th nearest's angle.
        let (hits, candidates) = gazetteer.nearest(latitude: point.latitude, longitude: point.longitude, count: count,
                                                   widenedTo: Self.widenedChordSquared)
        if !hits.isEmpty {
            // Karney's inverse in the order of a lower bound on the geodesic, only until that bound
            // passes the count-th distance measured: far out at sea beside a populated coast the
            // curvature bound above lets in hundreds of places, most of them plainly farther.
            let here = AuxiliaryPoint(latitude: point.latitude, longitude: point.longitude)
            var ordered: [(bound: Double, index: Int)] = candidates.map { hit in
                let p = gazetteer.position(at: hit.index)
                return (Self.geodesicLowerBound(here, AuxiliaryPoint(latitude: p.latitude, longitude: p.longitude)), hit.index)
            }
            ordered.sort { ($0.bound, $0.index) < ($1.bound, $1.index) }
            for candidate in ordered {
                if results.count >= count, candidate.bound > results[count - 1].distance { break }
                let position = gazetteer.position(at: candidate.index)
                let (distance, direction) = Self.measure(from: position, to: point)
                let found = NearbyPlace(place: Place(name: "", country: "", latitude: position.latitude,
                                                     longitude: position.longitude),
                                        source: .gazetteer(candidate.index), distance: distance, direction: direction,
                                        isInside: false)
                var i = results.count
                while i > 0, (found.distance, found.order) < (results[i - 1].distance, results[i - 1].order) { i -= 1 }
                if i < count {
                    results.insert(found, at: i)
                    if results.count > count { results.removeLast() }
                }
            }
            for i in results.indices {
                if case .gazetteer(let index) = results[i].source { results[i].place = gazetteer.place(at: index) }
            }
        }
        for (i, user) in userPlaces.enumerated() {
            let (distance, direction) = Self.measure(from: (user.latitude, user.longitude), to: point)
            results.append(NearbyPlace(place: Place(name: user.name, country: "", latitude: user.latitude,
                                                    longitude: user.longitude),
                                       source: .user(i), distance: distance, direction: direction,
                                       isInside: distance <= user.radius))
        }
        results.sort { a, b in
            if a.isInside != b.isInside { return a.isInside }
            return (a.distance, a.order) < (b.distance, b.order)
        }
        return Array(results.prefix(count))
    }

    /// The biggest town near a point, when naming it beside the nearest place helps: the most
    /// populous gazetteer place within `townReach` times the nearest place's distance (at least
    /// `minimumTownReach`, at most `maximumTownReach`), of at least `minimumTownPopulation` people
    /// and at least `townPopulationRatio` times the nearest place's. nil when the nearest place
    /// is such a town already, or none is near.
    ///
    /// ```swift
    /// let point = try GeoPoint(latitude: 52.52, longitude: 5.07)
    /// let nearest = search.nearest(to: point, count: 1)[0]     // 1.7 km NE of Edam (7,380 people)
    /// search.town(near: point, beside: nearest)?.place.name    // "Volendam" (22,000), 2.8 km
    /// ```
    public func town(near point: GeoPoint, beside nearest: NearbyPlace) -> NearbyPlace? {
        guard case .gazetteer = nearest.source else { return nil }
        let reach = min(Self.maximumTownReach, max(Self.minimumTownReach, Self.townReach * nearest.distance))
        // Chord of the geodesic reach on the sphere, widened by the curvature bound.
        let angle = reach / 6_335_439.0 + Self.angleSlack
        let limit = 2 * sin(min(Double.pi, angle) / 2)
        let threshold = max(Self.minimumTownPopulation, Int((Self.townPopulationRatio * Double(nearest.place.population)).rounded(.up)))
        var best: (population: Int, index: Int)?
        var candidates: [(population: Int, index: Int)] = []
        for hit in gazetteer.within(latitude: point.latitude, longitude: point.longitude, chordSquared: limit * limit) {
            let population = gazetteer.population(at: hit.index)
            if population >= threshold { candidates.append((population, hit.index)) }
        }
        candidates.sort { ($0.population, -$0.index) > ($1.population, -$1.index) }
        for candidate in candidates {
            let position = gazetteer.position(at: candidate.index)
            let (distance, _) = Self.measure(from: position, to: point)
            if distance <= reach {
                best = candidate
                break
            }
        }
        guard let best else { return nil }
        let position = gazetteer.position(at: best.index)
        let (distance, direction) = Self.measure(from: position, to: point)
        return NearbyPlace(place: gazetteer.place(at: best.index), source: .gazetteer(best.index), distance: distance,
                           direction: direction, isInside: false)
    }

    /// How far, as a multiple of the nearest place's distance, the town named beside it may be.
    public static let townReach = 3.0
    /// The town may always be this far (metres): a village's centre is rarely more than a few
    /// kilometres from its neighbour town.
    public static let minimumTownReach = 5_000.0
    /// And never farther (metres): beyond it the town no longer says where the point is.
    public static let maximumTownReach = 50_000.0
    /// A town: GeoNames' own threshold for its "cities5000" list.
    public static let minimumTownPopulation = 5_000
    /// Worth naming beside the nearest place when at least this many times bigger.
    public static let townPopulationRatio = 2.0

    /// At most the WGS84 geodesic distance between two points (metres): the semi-minor axis b times
    /// their angle on the auxiliary sphere of reduced latitudes, taken with the longitude difference
    /// λ12 in place of the auxiliary sphere's ω12. Karney (2013), eqs. 7 and 8: s/b = ∫√(1 + k²
    /// sin²σ) dσ ≥ σ12, and |ω12| = |λ12| + f sin α0 I3 with 0 ≤ I3 ≤ σ12 ≤ π, so while |λ12| ≤ π − fπ
    /// the angle only grows from λ12 to ω12; beyond (points nearly opposite across a pole) the bound
    /// is 0. Within 0.34 % of the distance where the curvature bound leaves 1 %.
    static func geodesicLowerBound(_ a: AuxiliaryPoint, _ b: AuxiliaryPoint) -> Double {
        let f = Geodesic.wgs84.flattening
        let lambda = abs(remainder(b.longitude - a.longitude, 2 * Double.pi))
        guard lambda <= Double.pi * (1 - f) - 1e-9 else { return 0 }
        let dx = b.cosBeta * cos(lambda) - a.cosBeta, dy = b.cosBeta * sin(lambda), dz = b.sinBeta - a.sinBeta
        let sigma = 2 * asin(min(1, (dx * dx + dy * dy + dz * dz).squareRoot() / 2))
        let minorAxis = Geodesic.wgs84.equatorialRadius * (1 - f)
        return max(0, minorAxis * sigma * (1 - 1e-12) - 1e-3)
    }

    /// Distance and direction (at the place) from a place to a point.
    static func measure(from place: (latitude: Double, longitude: Double), to point: GeoPoint) -> (Double, Double?) {
        // Gazetteer and user positions are validated on the way in.
        guard let from = try? GeoPoint(latitude: place.latitude, longitude: place.longitude) else { return (.infinity, nil) }
        let inverse = Geodesic.wgs84.inverse(from, point)
        return (inverse.distance, inverse.distance > 0 ? inverse.azimuth1 : nil)
    }
}

extension NearbyPlace {
    /// A tie-breaker that keeps the order deterministic: user places before gazetteer ones, then
    /// by index.
    var order: Int {
        switch source {
        case .user(let i): return i
        case .gazetteer(let i): return 1_000_000 + i
        }
    }
}

/// A point on the auxiliary sphere of reduced latitudes (tan β = (1 − f) tan φ), longitude in radians.
struct AuxiliaryPoint {
    var sinBeta: Double, cosBeta: Double, longitude: Double

    init(latitude: Double, longitude: Double) {
        let phi = latitude * .pi / 180, oneMinusF = 1 - Geodesic.wgs84.flattening
        let s = oneMinusF * sin(phi), c = cos(phi)
        let r = (s * s + c * c).squareRoot()
        sinBeta = s / r
        cosBeta = c / r
        self.longitude = longitude * .pi / 180
    }
}
