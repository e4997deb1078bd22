import Glibc
import Linear

/// Angle arithmetic in degrees that keeps exact values exact.
///
/// Reducing an angle in degrees by a multiple of 90° before converting to radians means that
/// sin(90°) is exactly 1 and cos(90°) exactly 0, which the geodesic solver relies on to treat
/// poles, meridians and the equator without special-casing tiny round-off.
enum AngleMath {
    /// One degree in radians.
    static let degree = Double.pi / 180

    /// Snaps angles smaller than 1/16° onto a grid of 2⁻⁵⁷° (about 0.7 pm on the Earth).
    ///
    /// This removes values like 1e-200° that would otherwise produce near-singular cases. The
    /// expression `z - (z - y)` is not simplified by the compiler (no fast-math in Swift).
    @inline(__always)
    static func snapTiny(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return x.sign == .minus ? -y : y
    }

    /// Sine and cosine of an angle in degrees, exact at multiples of 90°.
    @inline(__always)
    static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
        // x = 90°·quadrant + r with |r| ≤ 45°. For moderate |x| the subtraction below is exact
        // (x and 90°·quadrant are within a factor of two), so this equals remquo(x, 90).
        var quadrant: Int32 = 0
        var reduced: Double
        if abs(x) <= 1e9 {
            let q = (x / 90).rounded(.toNearestOrEven)
            reduced = x - 90 * q
            quadrant = Int32(truncatingIfNeeded: Int(q))
        } else {
            reduced = remquo(x, 90, &quadrant)
        }
        let r = reduced * degree  // |r| ≤ π/4
        let s = sin(r)
        let c = cos(r)
        var sinx: Double
        var cosx: Double
        switch quadrant & 3 {
        case 0: sinx = s; cosx = c
        case 1: sinx = c; cosx = -s
        case 2: sinx = -s; cosx = -c
        default: sinx = -c; cosx = s
        }
        cosx += 0  // turn −0 into +0
        if sinx == 0 { sinx = copysign(sinx, x) }
        return (sinx, cosx)
    }

    /// atan2 in degrees, in (−180, 180], exact for the axis directions.
    @inline(__always)
    static func atan2Degrees(_ yIn: Double, _ xIn: Double) -> Double {
        var x = xIn
        var y = yIn
        var quadrant = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            quadrant = 2
        }
        if x.sign == .minus {
            x = -x
            quadrant += 1
        }
        // Now x ≥ 0 and x ≥ |y|, so the angle lies in [−45°, 45°].
        let angle = atan2(y, x) / degree
        switch quadrant {
        case 1: return copysign(180, y) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// remainder(x, 360), i.e. x reduced to [−180, 180]; skips the libm call when x is
    /// already there (remainder returns x itself then, ±180 included).
    @inline(__always)
    static func remainder360(_ x: Double) -> Double {
        abs(x) <= 180 ? x : remainder(x, 360)
    }

    /// Reduces an angle to [−180, 180], keeping the sign of the input at ±180.
    @inline(__always)
    static func wrap180(_ x: Double) -> Double {
        let y = remainder360(x)
        return abs(y) == 180 ? copysign(180, x) : y
    }

    /// The exact sum `u + v` as a rounded sum and its rounding error.
    @inline(__always)
    static func twoSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s != 0 ? 0 - (up + vpp) : s
        return (s, t)
    }

    /// `y − x` reduced to [−180, 180], plus the rounding error of that difference.
    ///
    /// The difference is computed so that `difference + error` is exact.
    @inline(__always)
    static func difference(from x: Double, to y: Double) -> (difference: Double, error: Double) {
        let first = twoSum(remainder360(-x), remainder360(y))
        let second = twoSum(remainder360(first.sum), first.error)
        var d = second.sum
        let t = second.error
        if d == 0 || abs(d) == 180 {
            d = copysign(d, t == 0 ? y - x : -t)
        }
        return (d, t)
    }

    /// √(x² + y²) without the cost of libm's `hypot` for the usual O(1) arguments; `hypot`
    /// takes over when the squares would underflow.
    @inline(__always)
    static func hypotenuse(_ x: Double, _ y: Double) -> Double {
        let r = (x * x + y * y).squareRoot()
        return r > 1e-100 ? r : hypot(x, y)
    }

    /// Scales (sin, cos) of an angle so that sin² + cos² = 1.
    ///
    /// The plain square root is used for speed; `hypot` takes over when the squares would
    /// underflow.
    @inline(__always)
    static func normalize(_ s: inout Double, _ c: inout Double) {
        let r = hypotenuse(s, c)
        s /= r
        c /= r
    }
}

/// Reduces an angle in degrees to the range [0, 360).
///
/// Tiny negative angles, whose sum with 360 rounds to 360, give 0, so the result is never 360.
/// A non-finite input (NaN or ±∞) has no direction and gives 0; validate it first if that
/// matters.
///
/// ```swift
/// normalizeDegrees(-90)      // 270
/// normalizeDegrees(725)      // 5
/// normalizeDegrees(-1e-20)   // 0
/// ```
public func normalizeDegrees(_ degrees: Double) -> Double { wrap360(degrees) }
