import Geomagnetism

extension ExpectedField {
    /// The expected field from WMM2025 at a place and decimal year (µT, degrees), or nil where the
    /// model cannot be evaluated. Dates outside the model's validity are extrapolated: a compass is
    /// better served by a slightly stale declination than by none.
    ///
    /// ```swift
    /// var config = HeadingFilterConfiguration()
    /// config.fieldProvider = ExpectedField.wmm
    /// ```
    @Sendable public static func wmm(latitude: Double, longitude: Double, decimalYear: Double) -> ExpectedField? {
        guard let f = try? WorldMagneticModel.wmm2025.field(
            at: GeodeticPoint(latitude: latitude, longitude: longitude, heightKm: 0),
            decimalYear: decimalYear, allowExtrapolation: true)
        else { return nil }
        let zone: FieldZone
        switch f.zone {
        case .normal: zone = .normal
        case .caution: zone = .caution
        case .blackout: zone = .blackout
        }
        return ExpectedField(declination: f.declination, inclination: f.inclination, totalField: f.total / 1000,
                             horizontalField: f.horizontal / 1000, zone: zone,
                             declinationUncertainty: f.declinationUncertainty)
    }
}
