import Glibc

/// The starting guess for the inverse problem.
struct InverseStart {
    var salp1: Double
    var calp1: Double
    /// When the line is short enough to be solved outright: σ₁₂ and α₂. Otherwise `sig12 < 0`.
    var sig12: Double
    var salp2: Double
    var calp2: Double
    /// Mean value of dn over the line, used to scale the short-line solution.
    var dnm: Double
}

extension Geodesic {
    /// Estimates α₁ for the geodesic from point 1 (β₁ ≤ 0) to point 2 (|β₂| ≤ |β₁|).
    ///
    /// Short lines use a sphere with radius scaled at the mean latitude, and very short ones
    /// are solved outright. Nearly antipodal points use the astroid approximation (Karney 2013,
    /// section 5), which places α₁ close enough for Newton's method to converge. Everything
    /// else starts from the great-circle azimuth on the auxiliary sphere.
    @inline(__always)
    func inverseStart(_ p1: ReducedLatitude, _ p2: ReducedLatitude,
                      lam12: Double, slam12: Double, clam12: Double) -> InverseStart
    {
        let sbet1 = p1.sbet, cbet1 = p1.cbet, sbet2 = p2.sbet, cbet2 = p2.cbet
        var result = InverseStart(salp1: 0, calp1: 0, sig12: -1, salp2: 0, calp2: 0, dnm: 1)
        // sin and cos of β₂ − β₁, and sin(β₂ + β₁).
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5

        var somg12: Double, comg12: Double
        if shortLine {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            result.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * result.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = AngleMath.hypotenuse(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortLine && ssig12 < shortLineTolerance {
            // Really short: the great circle on the scaled sphere is the answer.
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2
                * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            AngleMath.normalize(&salp2, &calp2)
            result.salp2 = salp2
            result.calp2 = calp2
            result.sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0
                    || ssig12 >= 6 * abs(n) * Double.pi * cbet1 * cbet1 {
            // Not nearly antipodal: the zeroth-order spherical estimate is good enough.
        } else {
            // Nearly antipodal. Scale to coordinates (x, y) in which the antipode of point 1 is
            // the origin and the singular point of the cut is (−1, 0).
            let lam12x = atan2(-slam12, -clam12)  // λ₁₂ − π
            let k2 = sbet1 * sbet1 * ep2
            let eps = Geodesic.expansionParameter(k2: k2)
            let lamscale = flattening * cbet1 * longitudeSeries.a3(eps) * Double.pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Tolerance.strip && x > -1 - Tolerance.astroidStrip {
                // On the strip next to the cut: α₁ follows from x alone.
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = Geodesic.astroid(x, y)
                // ω₁₂ is near π; estimate π − ω₁₂ directly.
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        // Sanity check on the guess (the negated test also catches NaN).
        if !(salp1 <= 0) {
            AngleMath.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        result.salp1 = salp1
        result.calp1 = calp1
        return result
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (Karney 2013, eq. 55).
    ///
    /// For y = 0 and |x| ≤ 1 the answer is 0.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        // Avoid taking the square root of a negative number in the discriminant.
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // Pick the sign of the square root so that the sum does not cancel.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // The three real roots case: take the one via the trigonometric formula.
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()  // v > 0
        let uv = u < 0 ? q / (v - u) : u + v  // uv > 0, computed without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }
}
