import Glibc

/// A geodesic described on the auxiliary sphere between its two end points, for one trial
/// azimuth α₁. Produced by ``Geodesic/lambda12(_:_:salp1:calp1:slam12:clam12:wantDerivative:)``.
struct AuxiliaryArc {
    /// The longitude mismatch λ₁₂(α₁) − λ₁₂(target), in radians.
    var mismatch: Double
    /// dλ₁₂/dα₁ (only when asked for).
    var derivative: Double
    var salp2: Double, calp2: Double
    /// σ₁₂, the arc length on the auxiliary sphere, in [0, π].
    var sig12: Double
    var ssig1: Double, csig1: Double
    var ssig2: Double, csig2: Double
    /// The expansion parameter ε for this geodesic.
    var eps: Double
}

/// The reduced latitude β of an end point (sin, cos) and dn = √(1 + e′² sin²β).
struct ReducedLatitude {
    var sbet: Double
    var cbet: Double
    var dn: Double
}

extension Geodesic {
    /// The expansion parameter ε for a geodesic with k² = e′² cos²α₀.
    @inline(__always)
    static func expansionParameter(k2: Double) -> Double {
        k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
    }

    /// The distance along a geodesic between σ₁ and σ₂, in units of b.
    @inline(__always)
    func scaledDistance(eps: Double, sig12: Double,
                        ssig1: Double, csig1: Double, ssig2: Double, csig2: Double) -> Double
    {
        let c1 = GeodesicSeries.c1(eps)
        let b1 = c1.sum(sin: ssig2, cos: csig2) - c1.sum(sin: ssig1, cos: csig1)
        return (1 + GeodesicSeries.a1Minus1(eps)) * (sig12 + b1)
    }

    /// The reduced length m₁₂ of a geodesic between σ₁ and σ₂, in units of b.
    @inline(__always)
    func scaledReducedLength(eps: Double, sig12: Double,
                             ssig1: Double, csig1: Double, dn1: Double,
                             ssig2: Double, csig2: Double, dn2: Double) -> Double
    {
        let a1 = GeodesicSeries.a1Minus1(eps)
        let a2 = GeodesicSeries.a2Minus1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let c2 = GeodesicSeries.c2(eps)
        let A1 = 1 + a1, A2 = 1 + a2
        // J₁₂ = I₁ − I₂ between the end points, using one combined series.
        let j = SineSeries6(c1: A1 * c1.c1 - A2 * c2.c1, c2: A1 * c1.c2 - A2 * c2.c2,
                            c3: A1 * c1.c3 - A2 * c2.c3, c4: A1 * c1.c4 - A2 * c2.c4,
                            c5: A1 * c1.c5 - A2 * c2.c5, c6: A1 * c1.c6 - A2 * c2.c6)
        let j12 = (a1 - a2) * sig12 + (j.sum(sin: ssig2, cos: csig2) - j.sum(sin: ssig1, cos: csig1))
        // Parenthesised products keep the cancellation exact for coincident points.
        return dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    }

    /// Follows the geodesic that leaves point 1 at azimuth α₁ to the latitude of point 2 and
    /// reports how far its longitude misses the target, λ₁₂(α₁) − λ₁₂.
    ///
    /// Point 1 is in the southern hemisphere (β₁ ≤ 0) and |β₂| ≤ |β₁|; α₁ is in (0, π).
    @inline(__always)
    func lambda12(_ p1: ReducedLatitude, _ p2: ReducedLatitude,
                  salp1: Double, calp1 calp1In: Double,
                  slam12: Double, clam12: Double, wantDerivative: Bool) -> AuxiliaryArc
    {
        let sbet1 = p1.sbet, cbet1 = p1.cbet, sbet2 = p2.sbet, cbet2 = p2.cbet
        // An equatorial start heading due east or west is degenerate; it was handled earlier.
        let calp1 = (sbet1 == 0 && calp1In == 0) ? -Tolerance.tiny : calp1In

        // Clairaut: sin α₁ cos β₁ = sin α₀.
        let salp0 = salp1 * cbet1
        let calp0 = AngleMath.hypotenuse(calp1, salp1 * sbet1)

        // tan β₁ = tan σ₁ cos α₁;  tan ω₁ = sin α₀ tan σ₁.
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        AngleMath.normalize(&ssig1, &csig1)

        // Enforce the symmetry |β₂| = −β₁ exactly; it matters to the Newton iteration.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let extra = cbet1 < -sbet1
                ? (cbet2 - cbet1) * (cbet1 + cbet2)
                : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + extra).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        AngleMath.normalize(&ssig2, &csig2)

        // σ₁₂ and ω₁₂, both in [0, π].
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ − λ₁₂(target), computed as one angle difference to avoid cancellation.
        let eta = atan2(somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)

        let eps = Geodesic.expansionParameter(k2: calp0 * calp0 * ep2)
        let c3 = longitudeSeries.c3(eps)
        let b312 = c3.sum(sin: ssig2, cos: csig2) - c3.sum(sin: ssig1, cos: csig1)
        let domg12 = -flattening * longitudeSeries.a3(eps) * salp0 * (sig12 + b312)

        var derivative = 0.0
        if wantDerivative {
            if calp2 == 0 {
                derivative = -2 * f1 * p1.dn / sbet1
            } else {
                let m12 = scaledReducedLength(eps: eps, sig12: sig12,
                                              ssig1: ssig1, csig1: csig1, dn1: p1.dn,
                                              ssig2: ssig2, csig2: csig2, dn2: p2.dn)
                derivative = m12 * f1 / (calp2 * cbet2)
            }
        }
        return AuxiliaryArc(mismatch: eta + domg12, derivative: derivative,
                            salp2: salp2, calp2: calp2, sig12: sig12,
                            ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps)
    }
}
