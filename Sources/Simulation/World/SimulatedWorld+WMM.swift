import Geomagnetism
import Linear

extension SimulatedWorld {
    /// The world at a place and date, with Earth's field from WMM2025 (µT, NED). Nil outside the
    /// model's validity or for an invalid place.
    ///
    /// ```swift
    /// let world = SimulatedWorld.wmm(latitude: -33.8694, longitude: 151.1990, decimalYear: 2026.9) ?? .sydney
    /// ```
    public static func wmm(latitude: Double, longitude: Double, heightKm: Double = 0,
                           decimalYear: Double) -> SimulatedWorld? {
        guard let f = try? WorldMagneticModel.wmm2025.field(
            at: GeodeticPoint(latitude: latitude, longitude: longitude, heightKm: heightKm),
            decimalYear: decimalYear, allowExtrapolation: true)
        else { return nil }
        return SimulatedWorld(latitude: latitude, longitude: longitude,
                              field: Vector3(f.north / 1000, f.east / 1000, f.down / 1000))
    }
}
