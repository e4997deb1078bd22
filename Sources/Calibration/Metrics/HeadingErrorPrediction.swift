#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// What a calibration's remaining uncertainty does to the heading: the parameters' covariance
/// (from the fit's Jacobian and its residual) propagated to the tilt-compensated heading over the
/// orientations a compass is used in — level, and tilted by `tiltDegrees` toward every side —
/// at every heading.
///
/// Figures are 95 % bounds (1.96 σ) at the worst heading, in degrees: "the heading is within
/// ±`level`° of what a perfect calibration would give, at any heading, when level".
///
/// ```swift
/// let p = result.headingError        // after CalibrationSolver().solve(samples)
/// print("expected heading error ±\(p.level)° level, ±\(p.tilted)° at \(p.tiltDegrees)° tilt")
/// ```
public struct HeadingErrorPrediction: Sendable, Hashable {
    /// 95 % bound of the heading error at the worst heading, level, degrees.
    public var level: Double
    /// 95 % bound at the worst heading and tilt direction, tilted by `tiltDegrees`, degrees.
    public var tilted: Double
    /// The tilt of the `tilted` figure, degrees.
    public var tiltDegrees: Double
    /// The magnetic inclination the prediction assumed, degrees (positive down).
    public var inclinationDegrees: Double

    public init(level: Double, tilted: Double, tiltDegrees: Double, inclinationDegrees: Double) {
        self.level = level; self.tilted = tilted; self.tiltDegrees = tiltDegrees; self.inclinationDegrees = inclinationDegrees
    }

    /// A prediction that says nothing is known (the covariance could not be formed).
    static func unknown(tiltDegrees: Double, inclinationDegrees: Double) -> HeadingErrorPrediction {
        HeadingErrorPrediction(level: .infinity, tilted: .infinity, tiltDegrees: tiltDegrees,
                               inclinationDegrees: inclinationDegrees)
    }

    /// 95 % two-sided factor of a normal distribution.
    static let confidenceFactor = 1.96

    /// Propagates `covariance` (k×k, row-major) of the parameters to the heading.
    ///
    /// - Parameter sensitivity: for a true corrected field direction (unit, body axes) it returns
    ///   the k columns ∂c/∂pⱼ of the corrected field c with respect to each parameter, with c
    ///   scaled so that |c| = 1 (only its direction matters for the heading).
    static func propagate(covariance: DenseMatrix, inclinationDegrees: Double, tiltDegrees: Double,
                          sensitivity: (Vector3) -> [Vector3]?) -> HeadingErrorPrediction {
        let k = covariance.n
        let dip = inclinationDegrees * .pi / 180
        let earth = Vector3(cos(dip), 0, sin(dip))   // NED, unit
        func worst(tilt: Double) -> Double {
            var worstVariance = 0.0
            let directions = tilt == 0 ? 1 : 8
            for side in 0..<directions {
                let azimuth = Double(side) * .pi / 4
                let roll = tilt * sin(azimuth), pitch = tilt * cos(azimuth)
                for step in 0..<36 {
                    let attitude = Matrix3.rotation(roll: roll, pitch: pitch, yaw: Double(step) * .pi / 18)
                    let body = attitude.transposed * earth
                    guard let columns = sensitivity(body), columns.count == k else { return .infinity }
                    // Heading of the corrected field rotated back to NED: atan2(east, north).
                    let world = earth
                    let horizontal = world.x * world.x + world.y * world.y
                    guard horizontal > 1e-12 else { return .infinity }
                    var g = [Double](repeating: 0, count: k)
                    for j in 0..<k {
                        let dw = attitude * columns[j]
                        g[j] = (world.x * dw.y - world.y * dw.x) / horizontal
                    }
                    var variance = 0.0
                    for i in 0..<k {
                        var row = 0.0
                        for j in 0..<k { row += covariance[i, j] * g[j] }
                        variance += g[i] * row
                    }
                    guard variance.isFinite else { return .infinity }
                    worstVariance = max(worstVariance, variance)
                }
            }
            return confidenceFactor * worstVariance.squareRoot() * 180 / .pi
        }
        return HeadingErrorPrediction(level: worst(tilt: 0), tilted: worst(tilt: tiltDegrees * .pi / 180),
                                      tiltDegrees: tiltDegrees, inclinationDegrees: inclinationDegrees)
    }

    /// The columns ∂c/∂p of c = M·(x − o) for `model`'s packed parameters (offset, then the matrix
    /// entries the model frees, as `UnitSphereParameters.packed`), at v = x − o.
    static func columns(model: CalibrationModel, matrix: Matrix3, v: Vector3) -> [Vector3] {
        var columns = [matrix * Vector3(-1, 0, 0), matrix * Vector3(0, -1, 0), matrix * Vector3(0, 0, -1)]
        switch model {
        case .offset:
            columns.append(v)
        case .diagonal:
            columns += [Vector3(v.x, 0, 0), Vector3(0, v.y, 0), Vector3(0, 0, v.z)]
        case .full:
            columns += [Vector3(v.x, 0, 0), Vector3(0, v.y, 0), Vector3(0, 0, v.z),
                        Vector3(v.y, v.x, 0), Vector3(v.z, 0, v.x), Vector3(0, v.z, v.y)]
        }
        return columns
    }
}
