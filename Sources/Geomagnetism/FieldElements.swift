/// NOAA's error model: global 1-sigma uncertainties, with the declination term growing as
/// the horizontal intensity H shrinks.
struct ErrorModel: Sendable {
    let north: Double
    let east: Double
    let down: Double
    let horizontal: Double
    let total: Double
    let inclination: Double
    let declinationOffset: Double
    let declinationCoefficient: Double

    /// WMM2025 technical report values (the same in NOAA's WMM2025 software):
    /// X 137, Y 89, Z 141, H 133, F 138 nT, I 0.20°, D √(0.26² + (5417/H)²)°.
    static let wmm2025 = ErrorModel(
        north: 137, east: 89, down: 141, horizontal: 133, total: 138, inclination: 0.20,
        declinationOffset: 0.26, declinationCoefficient: 5417)

    /// The declination uncertainty never exceeds this many degrees (it is a direction).
    static let maximumDeclinationUncertainty = 180.0

    func declination(horizontalIntensity h: Double) -> Double {
        guard h > 0 else { return Self.maximumDeclinationUncertainty }  // also NaN
        let ratio = declinationCoefficient / h
        let value = (declinationOffset * declinationOffset + ratio * ratio).squareRoot()
        return min(value, Self.maximumDeclinationUncertainty)
    }

    func uncertainty(horizontalIntensity h: Double) -> MagneticUncertainty {
        MagneticUncertainty(north: north, east: east, down: down, horizontal: horizontal,
                            total: total, inclination: inclination,
                            declination: declination(horizontalIntensity: h))
    }
}

extension MagneticField {
    /// Derives every element from the geodetic field vector and its yearly rate.
    init(vector v: FieldVector, rate dv: FieldVector, latitude: Double, longitude: Double,
         errorModel: ErrorModel, isExtrapolated: Bool) {
        let h2 = v.north * v.north + v.east * v.east
        let h = h2.squareRoot()
        let f2 = h2 + v.down * v.down
        let f = f2.squareRoot()
        let d = angleDegrees(v.east, v.north)
        let i = angleDegrees(v.down, h)

        // Rates: differentiate H = √(X² + Y²), F, D = atan2(Y, X), I = atan2(Z, H).
        // At H = 0 (or F = 0) the angles are undefined; report 0 rather than NaN.
        let dh = h > 0 ? (v.north * dv.north + v.east * dv.east) / h
                       : (dv.north * dv.north + dv.east * dv.east).squareRoot()
        let df = f > 0 ? (v.north * dv.north + v.east * dv.east + v.down * dv.down) / f : 0
        let dd = h2 > 0 ? (v.north * dv.east - v.east * dv.north) / h2 * Earth.radiansToDegrees : 0
        let di = f2 > 0 ? (h * dv.down - v.down * dh) / f2 * Earth.radiansToDegrees : 0

        let gv: Double?
        if latitude >= 55 {
            gv = signedDegrees(d - longitude)
        } else if latitude <= -55 {
            gv = signedDegrees(d + longitude)
        } else {
            gv = nil
        }

        self.init(
            north: v.north, east: v.east, down: v.down, horizontal: h, total: f,
            inclination: i, declination: d, gridVariation: gv,
            secular: SecularVariation(
                north: dv.north, east: dv.east, down: dv.down, horizontal: dh, total: df,
                inclination: di, declination: dd, gridVariation: gv == nil ? nil : dd),
            zone: MagneticZone(horizontalIntensity: h),
            uncertainty: errorModel.uncertainty(horizontalIntensity: h),
            isExtrapolated: isExtrapolated)
    }
}
