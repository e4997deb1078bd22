#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// The World Magnetic Model: the Earth's main field and its secular variation, degree 12.
///
/// Evaluation is pure computation on precomputed tables: no file is read, nothing is allocated
/// per call, and the result is finite everywhere in the model's domain, both geographic poles
/// included.
///
/// ```swift
/// let wmm = WorldMagneticModel.wmm2025
/// let year = decimalYear(year: 2026, month: 7, day: 1) ?? 2026.5
/// let d = try wmm.declination(latitude: 47.6, longitude: -122.3, heightKm: 0, decimalYear: year)
/// let field = try wmm.field(at: GeodeticPoint(latitude: 47.6, longitude: -122.3), decimalYear: year)
/// ```
public struct WorldMagneticModel: Sendable {
    /// The model name from the coefficient file, e.g. "WMM-2025".
    public let name: String
    /// Epoch of the coefficients (decimal year); also the start of the validity interval.
    public let epoch: Double
    /// End of the validity interval (decimal year).
    public let validUntil: Double
    /// The Gauss coefficients, in coefficient-file order.
    public let coefficients: [GaussCoefficient]

    let synthesis: HarmonicSynthesis
    let errorModel: ErrorModel

    /// Heights (km above the WGS84 ellipsoid) where the WMM is defined: 1 km below to 850 km above.
    public static let heightRangeKm: ClosedRange<Double> = -1.0...850.0

    /// WMM2025 (NOAA NCEI / BGS), valid 2025.0 to 2030.0.
    public static let wmm2025 = WorldMagneticModel(
        name: wmm2025Header.name, epoch: wmm2025Header.epoch, validUntil: wmm2025Header.epoch + 5,
        coefficients: wmm2025Table, errorModel: .wmm2025)

    init(name: String, epoch: Double, validUntil: Double, coefficients: [GaussCoefficient],
         errorModel: ErrorModel) {
        self.name = name
        self.epoch = epoch
        self.validUntil = validUntil
        self.coefficients = coefficients
        self.errorModel = errorModel
        let degree = coefficients.map(\.n).max() ?? 0
        synthesis = HarmonicSynthesis(coefficients: coefficients, maxDegree: degree)
    }

    /// Start of the validity interval (decimal year), the same as `epoch`.
    public var validFrom: Double { epoch }

    /// All field elements, their secular variation, the zone and the uncertainties.
    ///
    /// - Parameters:
    ///   - point: geodetic latitude and longitude (degrees) and height above the ellipsoid (km).
    ///   - decimalYear: the date, e.g. from `decimalYear(year:month:day:)`.
    ///   - allowExtrapolation: evaluate outside `validFrom...validUntil` too; the result is then
    ///     flagged `isExtrapolated`.
    /// - Throws: `GeomagnetismError` for out-of-range or non-finite input, or a date outside
    ///   the validity interval when `allowExtrapolation` is false.
    public func field(
        at point: GeodeticPoint, decimalYear: Double, allowExtrapolation: Bool = false
    ) throws(GeomagnetismError) -> MagneticField {
        let extrapolated = try check(latitude: point.latitude, longitude: point.longitude,
                                     heightKm: point.heightKm, decimalYear: decimalYear,
                                     allowExtrapolation: allowExtrapolation)
        let position = GeocentricPosition(latitude: point.latitude, longitude: point.longitude,
                                          heightKm: point.heightKm)
        let (main, rate) = synthesis.fieldAndRate(at: position, years: decimalYear - epoch)
        let v = Self.geodetic(main, position)
        let dv = Self.geodetic(rate, position)
        return MagneticField(vector: v, rate: dv, latitude: point.latitude,
                             longitude: point.longitude, errorModel: errorModel,
                             isExtrapolated: extrapolated)
    }

    /// Declination only (degrees, positive east, in (−180, 180]): the fast path.
    ///
    /// Same inputs, checks and errors as `field(at:decimalYear:allowExtrapolation:)`;
    /// skips the secular variation.
    public func declination(
        latitude: Double, longitude: Double, heightKm: Double = 0, decimalYear: Double,
        allowExtrapolation: Bool = false
    ) throws(GeomagnetismError) -> Double {
        _ = try check(latitude: latitude, longitude: longitude, heightKm: heightKm,
                      decimalYear: decimalYear, allowExtrapolation: allowExtrapolation)
        let position = GeocentricPosition(latitude: latitude, longitude: longitude, heightKm: heightKm)
        let v = Self.geodetic(synthesis.field(at: position, years: decimalYear - epoch), position)
        return angleDegrees(v.east, v.north)
    }

    /// NOAA's 1-sigma uncertainties for a place where the horizontal intensity is `h` nT.
    public func uncertainty(horizontalIntensity h: Double) -> MagneticUncertainty {
        errorModel.uncertainty(horizontalIntensity: h)
    }

    /// Validates the inputs; returns whether the date needs extrapolation.
    @inline(__always)
    func check(
        latitude: Double, longitude: Double, heightKm: Double, decimalYear: Double,
        allowExtrapolation: Bool
    ) throws(GeomagnetismError) -> Bool {
        guard latitude.isFinite else { throw .nonFinite(quantity: "latitude") }
        guard longitude.isFinite else { throw .nonFinite(quantity: "longitude") }
        guard heightKm.isFinite else { throw .nonFinite(quantity: "height") }
        guard decimalYear.isFinite else { throw .nonFinite(quantity: "date") }
        guard latitude >= -90, latitude <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude >= -180, longitude <= 360 else { throw .invalidLongitude(longitude) }
        guard Self.heightRangeKm.contains(heightKm) else { throw .invalidHeight(heightKm) }
        let outside = decimalYear < epoch || decimalYear > validUntil
        if outside && !allowExtrapolation {
            throw .outsideValidity(year: decimalYear, validFrom: epoch, validUntil: validUntil)
        }
        return outside
    }

    /// Rotates a geocentric (X′, Y′, Z′) vector into the geodetic frame (X, Y, Z).
    @inline(__always)
    static func geodetic(_ v: FieldVector, _ p: GeocentricPosition) -> FieldVector {
        FieldVector(north: v.north * p.cosRotation - v.down * p.sinRotation,
                    east: v.east,
                    down: v.north * p.sinRotation + v.down * p.cosRotation)
    }
}

/// atan2(y, x) in degrees, in (−180, 180].
@inline(__always)
func angleDegrees(_ y: Double, _ x: Double) -> Double {
    let a = atan2(y, x) * Earth.radiansToDegrees
    return a <= -180 ? a + 360 : a
}

/// An angle in degrees brought into (−180, 180]: `Linear.wrap180`.
func signedDegrees(_ x: Double) -> Double { wrap180(x) }
