import Geomagnetism
import Glibc
import JSON
import Outputs
import Platform

/// `lodestone declination`: the World Magnetic Model at one place and date.
public struct DeclinationQuery: Sendable {
    public var latitude: Double
    public var longitude: Double
    public var heightKm: Double
    /// Decimal year; nil: today on the runtime's clock.
    public var year: Double?
    public var json: Bool
    public var allowExtrapolation: Bool

    /// Height above the ellipsoid when the command does not say (`--height-km`), km: the ellipsoid.
    public static let defaultHeightKm = 0.0

    public init(latitude: Double, longitude: Double, heightKm: Double = defaultHeightKm, year: Double? = nil, json: Bool = false,
                allowExtrapolation: Bool = false) {
        self.latitude = latitude
        self.longitude = longitude
        self.heightKm = heightKm
        self.year = year
        self.json = json
        self.allowExtrapolation = allowExtrapolation
    }

    /// Evaluates the model and prints the report (text or one JSON object).
    ///
    /// ```swift
    /// try DeclinationQuery(latitude: -33.87, longitude: 151.2).run(runtime: runtime)
    /// ```
    public func run(runtime: Runtime) throws -> ExitCode {
        let year = self.year ?? decimalYear(unixSeconds: runtime.time.wall()) ?? 2025
        let model = WorldMagneticModel.wmm2025
        let field: MagneticField
        do {
            field = try model.field(at: GeodeticPoint(latitude: latitude, longitude: longitude, heightKm: heightKm),
                                    decimalYear: year, allowExtrapolation: allowExtrapolation)
        } catch {
            throw ModelError(underlying: error)
        }
        if field.isExtrapolated {
            runtime.diagnostics.write("warning: \(fixed(year, 2)) is outside WMM2025's validity (\(fixed(model.epoch, 1))–\(fixed(model.validUntil, 1))); the result is extrapolated and less accurate\n")
        }
        if json {
            let record = DeclinationRecord(field, latitude: latitude, longitude: longitude, heightKm: heightKm, year: year)
            runtime.output.write(ReportJSON.declination(record).serialized() + "\n")
        } else {
            runtime.output.write(DeclinationReport.text(field, lat: latitude, lon: longitude, height: heightKm, year: year, model: model))
        }
        return .success
    }

    /// "2027-06-01" → decimal year, or nil when it is not a calendar date.
    public static func year(ofDate text: String) -> Double? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        return decimalYear(year: y, month: m, day: d)
    }
}

/// A model error as a user-facing error: bad data in the arguments.
public struct ModelError: UserFacingError {
    public var underlying: GeomagnetismError
    public var message: String { underlying.message }
    public var exitCode: ExitCode { .usage }
}

extension MagneticZone {
    var name: String {
        switch self {
        case .normal: return "normal"
        case .caution: return "caution"
        case .blackout: return "blackout"
        }
    }
}
