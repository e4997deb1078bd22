/// Geodesics (shortest paths) on an ellipsoid of revolution, after C. F. F. Karney,
/// "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013).
///
/// Both problems are solved to round-off for WGS84 (distance errors of a few nanometres):
/// - inverse: two points → distance and the forward azimuths at both ends;
/// - direct: a point, an azimuth and a distance → the point reached and the azimuth there.
///
/// The inverse solver always converges, including for nearly antipodal points, where it starts
/// Newton's method from the astroid approximation.
///
/// ```swift
/// let a = try GeoPoint(latitude: 40.64, longitude: -73.78)   // JFK
/// let b = try GeoPoint(latitude: 1.36, longitude: 103.99)    // SIN
/// let r = Geodesic.inverse(a, b)   // r.distance ≈ 15 347 513 m, r.azimuth1 ≈ 3.31°
/// let d = try Geodesic.direct(from: a, azimuth: r.azimuth1, distance: r.distance)
/// ```
public struct Geodesic: Sendable {
    /// Equatorial radius a, in metres.
    public let equatorialRadius: Double
    /// Flattening f = (a − b) / a.
    public let flattening: Double

    /// 1 − f.
    let f1: Double
    /// Second eccentricity squared, e′² = e² / (1 − e²).
    let ep2: Double
    /// Third flattening, n = f / (2 − f).
    let n: Double
    /// Polar radius b = a(1 − f).
    let b: Double
    /// σ₁₂ below which the auxiliary-sphere solution is accurate enough on its own.
    let shortLineTolerance: Double
    /// The longitude-integral series, precomputed for this ellipsoid.
    let longitudeSeries: LongitudeSeriesCoefficients

    /// The WGS84 ellipsoid: a = 6 378 137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(validRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// Creates a solver for an oblate ellipsoid (or a sphere).
    ///
    /// - Parameters:
    ///   - equatorialRadius: a in metres, positive and finite.
    ///   - flattening: f in [0, 0.01]; the sixth-order series are accurate to round-off there.
    public init(equatorialRadius: Double, flattening: Double) throws(GeodesyError) {
        guard equatorialRadius.isFinite, equatorialRadius > 0,
              flattening.isFinite, flattening >= 0, flattening <= 0.01
        else {
            throw .unsupportedEllipsoid(equatorialRadius: equatorialRadius, flattening: flattening)
        }
        self.init(validRadius: equatorialRadius, flattening: flattening)
    }

    private init(validRadius a: Double, flattening f: Double) {
        equatorialRadius = a
        flattening = f
        f1 = 1 - f
        let e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        // Relative error of the short-line azimuth check is σ₁₂² |f| min(1, 1 − f/2) / 2.
        shortLineTolerance = 0.1 * Tolerance.sqrtEpsilon
            / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        longitudeSeries = LongitudeSeriesCoefficients(thirdFlattening: n)
    }
}

/// Numerical thresholds shared by the solvers.
enum Tolerance {
    /// Underflow guard: tiny·ε > 0 and tiny + ε == ε.
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    /// Machine epsilon.
    static let epsilon = Double.ulpOfOne
    /// How far below the cut (y < 0, astroid units) the starting guess still uses the strip rule.
    static let strip = 200 * Double.ulpOfOne
    /// √ε.
    static let sqrtEpsilon = Double.ulpOfOne.squareRoot()
    /// Smallest useful bisection interval.
    static let bisection = Double.ulpOfOne * Double.ulpOfOne.squareRoot()
    /// Distance from the cut line (in astroid units) treated as on it.
    static let astroidStrip = 1000 * Double.ulpOfOne.squareRoot()
    /// Newton steps before falling back to bisection only.
    static let newtonIterations = 20
    /// Hard cap on all iterations (bisection halves the interval each time).
    static let maxIterations = 20 + Double.significandBitCount + 1 + 10
}

// MARK: - Public API

extension Geodesic {
    /// Solves the inverse problem: the shortest path from `a` to `b`.
    ///
    /// For coincident points the distance is 0 and the azimuths are those of the meridian.
    ///
    /// ```swift
    /// let r = Geodesic.wgs84.inverse(a, b)
    /// print(r.distance, r.azimuth1, r.azimuth2)
    /// ```
    public func inverse(_ a: GeoPoint, _ b: GeoPoint) -> GeodesicInverse {
        let sol = solveInverse(latitude1: a.latitude, longitude1: a.longitude,
                               latitude2: b.latitude, longitude2: b.longitude)
        return GeodesicInverse(
            distance: sol.distance,
            azimuth1: normalizeDegrees(AngleMath.atan2Degrees(sol.sinAzimuth1, sol.cosAzimuth1)),
            azimuth2: normalizeDegrees(AngleMath.atan2Degrees(sol.sinAzimuth2, sol.cosAzimuth2)))
    }

    /// Solves the inverse problem on WGS84 (same as `Geodesic.wgs84.inverse(a, b)`).
    public static func inverse(_ a: GeoPoint, _ b: GeoPoint) -> GeodesicInverse {
        wgs84.inverse(a, b)
    }

    /// Solves the direct problem: where a geodesic from `start` ends after `distance` metres.
    ///
    /// - Parameters:
    ///   - azimuth: degrees clockwise from north (any finite value).
    ///   - distance: metres along the geodesic; negative goes backwards.
    /// - Throws: ``GeodesyError/nonFiniteAzimuth`` or ``GeodesyError/nonFiniteDistance``.
    ///
    /// ```swift
    /// let d = try Geodesic.wgs84.direct(from: a, azimuth: 45, distance: 10_000)
    /// print(d.point.latitude, d.point.longitude, d.azimuth2)
    /// ```
    public func direct(from start: GeoPoint, azimuth: Double, distance: Double)
        throws(GeodesyError) -> GeodesicDirect
    {
        guard azimuth.isFinite else { throw .nonFiniteAzimuth }
        guard distance.isFinite else { throw .nonFiniteDistance }
        let sol = solveDirect(latitude1: start.latitude, longitude1: start.longitude,
                              azimuth1: azimuth, distance: distance)
        return GeodesicDirect(
            point: GeoPoint(validLatitude: sol.latitude, longitude: sol.longitude),
            azimuth2: normalizeDegrees(sol.azimuth2))
    }

    /// Solves the direct problem on WGS84 (same as `Geodesic.wgs84.direct(...)`).
    public static func direct(from start: GeoPoint, azimuth: Double, distance: Double)
        throws(GeodesyError) -> GeodesicDirect
    {
        try wgs84.direct(from: start, azimuth: azimuth, distance: distance)
    }
}
