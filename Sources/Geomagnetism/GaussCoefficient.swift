/// One Gauss coefficient pair of a spherical harmonic main-field model, as listed in a
/// WMM coefficient (`.COF`) file.
///
/// The field at time `t` (decimal year) uses `g + (t − epoch) · gDot` and
/// `h + (t − epoch) · hDot`.
///
/// ```swift
/// let first = WorldMagneticModel.wmm2025.coefficients[0]
/// // first.n == 1, first.m == 0, first.g == -29351.8 (nT)
/// ```
public struct GaussCoefficient: Sendable, Hashable {
    /// Degree, 1...12 for the WMM.
    public let n: Int
    /// Order, 0...n.
    public let m: Int
    /// Main-field coefficient g(n, m) at the epoch, nT.
    public let g: Double
    /// Main-field coefficient h(n, m) at the epoch, nT (0 when m = 0).
    public let h: Double
    /// Secular variation of g, nT/year.
    public let gDot: Double
    /// Secular variation of h, nT/year.
    public let hDot: Double

    /// Creates a coefficient row (degree, order, g, h, and their yearly rates).
    public init(n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double) {
        self.n = n
        self.m = m
        self.g = g
        self.h = h
        self.gDot = gDot
        self.hDot = hDot
    }
}
