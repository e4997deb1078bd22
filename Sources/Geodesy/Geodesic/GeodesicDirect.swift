import Glibc

/// The direct solution in degrees, azimuth still signed in (−180, 180].
struct DirectSolution {
    var latitude: Double
    var longitude: Double
    var azimuth2: Double
}

extension Geodesic {
    /// Solves the direct problem for validated, finite inputs.
    ///
    /// The geodesic is set up on the auxiliary sphere from its northward equator crossing
    /// (azimuth α₀). The distance is converted to the scaled distance τ₁₂, the reverted series
    /// gives σ₂, and the longitude follows from the I₃ series.
    func solveDirect(latitude1: Double, longitude1: Double,
                     azimuth1: Double, distance s12: Double) -> DirectSolution
    {
        let azi1 = AngleMath.wrap180(azimuth1)
        let (salp1, calp1) = AngleMath.sinCos(degrees: AngleMath.snapTiny(azi1))
        let p1 = reducedLatitude(AngleMath.snapTiny(latitude1))
        let sbet1 = p1.sbet, cbet1 = p1.cbet

        // Clairaut: sin α₀ = sin α₁ cos β₁; α₀ ∈ [0, π/2] for cos α₀.
        let salp0 = salp1 * cbet1
        let calp0 = AngleMath.hypotenuse(calp1, salp1 * sbet1)
        // σ₁ and ω₁ measured from the equator crossing; σ₁ = ω₁ = 0 for an eastward equatorial
        // start (the limit from just north of the equator).
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        AngleMath.normalize(&ssig1, &csig1)

        let k2 = calp0 * calp0 * ep2
        let eps = Geodesic.expansionParameter(k2: k2)
        let a1 = 1 + GeodesicSeries.a1Minus1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let b11 = c1.sum(sin: ssig1, cos: csig1)
        // τ₁ = σ₁ + B₁₁.
        let sb11 = sin(b11), cb11 = cos(b11)
        let stau1 = ssig1 * cb11 + csig1 * sb11
        let ctau1 = csig1 * cb11 - ssig1 * sb11

        // σ₁₂ from τ₁₂ by the reverted series.
        let tau12 = s12 / (b * a1)
        let stau12 = sin(tau12), ctau12 = cos(tau12)
        let c1p = GeodesicSeries.c1Reverted(eps)
        let b12 = -c1p.sum(sin: stau1 * ctau12 + ctau1 * stau12, cos: ctau1 * ctau12 - stau1 * stau12)
        let sig12 = tau12 - (b12 - b11)
        let ssig12 = sin(sig12), csig12 = cos(sig12)

        // σ₂ = σ₁ + σ₁₂.
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12

        // β₂ and α₂.
        let sbet2 = calp0 * ssig2
        var cbet2 = AngleMath.hypotenuse(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // The point is a pole: break the degeneracy.
            cbet2 = Tolerance.tiny
            csig2 = Tolerance.tiny
        }
        let salp2 = salp0
        let calp2 = calp0 * csig2

        // Longitude: ω₁₂ on the auxiliary sphere plus the ellipsoidal correction.
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let c3 = longitudeSeries.c3(eps)
        let a3c = -flattening * salp0 * longitudeSeries.a3(eps)
        let b31 = c3.sum(sin: ssig1, cos: csig1)
        let lam12 = omg12 + a3c * (sig12 + (c3.sum(sin: ssig2, cos: csig2) - b31))
        let lon12 = lam12 / AngleMath.degree
        let lon2 = AngleMath.wrap180(AngleMath.wrap180(longitude1) + AngleMath.wrap180(lon12))

        let lat2 = AngleMath.atan2Degrees(sbet2, f1 * cbet2)
        let azi2 = AngleMath.atan2Degrees(salp2, calp2)
        return DirectSolution(latitude: min(90, max(-90, lat2)), longitude: lon2, azimuth2: azi2)
    }
}
