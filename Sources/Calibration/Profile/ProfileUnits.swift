import Linear

extension CalibrationProfile {
    /// Microtesla per unit for the unit names profiles use ("uT", "µT", "nT", "mG", "gauss", "G");
    /// nil for "input", "counts" and anything else whose scale is unknown.
    ///
    /// ```swift
    /// CalibrationProfile.microteslaPerUnit("gauss")   // 100
    /// CalibrationProfile.microteslaPerUnit("counts")  // nil
    /// ```
    public static func microteslaPerUnit(_ unit: String) -> Double? {
        switch unit.lowercased() {
        case "ut", "µt", "μt", "microtesla": return 1
        case "nt", "nanotesla": return 0.001
        case "mg", "milligauss": return 0.1
        case "g", "gauss": return 100
        default: return nil
        }
    }

    /// The same calibration for readings in microtesla: offset and field strength scaled, the
    /// (dimensionless) matrix and the percentages unchanged. Nil when the profile's unit has no
    /// known scale (see `microteslaPerUnit`).
    ///
    /// ```swift
    /// let usable = profile.unit == "uT" ? profile : profile.inMicrotesla()
    /// ```
    public func inMicrotesla() -> CalibrationProfile? {
        guard let factor = Self.microteslaPerUnit(unit) else { return nil }
        var copy = self
        copy.offset = offset * factor
        copy.fieldStrength = fieldStrength * factor
        copy.unit = "uT"
        return copy
    }
}
