import Glibc

/// The inverse solution with azimuths kept as (sin, cos) pairs, before conversion to degrees.
struct InverseSolution {
    /// Distance in metres.
    var distance: Double
    var sinAzimuth1: Double, cosAzimuth1: Double
    var sinAzimuth2: Double, cosAzimuth2: Double
    /// Arc length on the auxiliary sphere, in degrees.
    var arcDegrees: Double
    /// Newton/bisection steps taken (0 when solved directly).
    var iterations: Int
}

extension Geodesic {
    /// Solves the inverse problem for validated coordinates (|latitude| ≤ 90, all finite).
    ///
    /// The points are first arranged so that point 1 is the one further from the equator and
    /// lies in the southern hemisphere, with λ₁₂ ∈ [0, 180]; the azimuths are mapped back at
    /// the end. Meridional and equatorial lines are solved in closed form; all others by
    /// Newton's method on α₁, safeguarded by bisection.
    func solveInverse(latitude1: Double, longitude1: Double,
                      latitude2: Double, longitude2: Double) -> InverseSolution
    {
        // λ₁₂ reduced exactly, with the sign removed; keep 180° − λ₁₂ accurately as well.
        let diff = AngleMath.difference(from: longitude1, to: longitude2)
        var lonSign: Double = diff.difference.sign == .minus ? -1 : 1
        let lon12 = lonSign * AngleMath.snapTiny(diff.difference)
        let lon12Supplement = AngleMath.snapTiny((180 - lon12) - lonSign * diff.error)
        let lam12 = lon12 * AngleMath.degree
        var slam12: Double, clam12: Double
        if lon12 > 90 {
            (slam12, clam12) = AngleMath.sinCos(degrees: lon12Supplement)
            clam12 = -clam12
        } else {
            (slam12, clam12) = AngleMath.sinCos(degrees: lon12)
        }

        var lat1 = AngleMath.snapTiny(latitude1)
        var lat2 = AngleMath.snapTiny(latitude2)
        // Make |lat1| ≥ |lat2|, then lat1 ≤ 0.
        let swapped = abs(lat1) < abs(lat2)
        if swapped {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1 < 0 ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        var p1 = reducedLatitude(lat1)
        var p2 = reducedLatitude(lat2)
        // Make the symmetric cases exact: β₂ = ±β₁ whenever the latitudes were ±equal.
        if p1.cbet < -p1.sbet {
            if p2.cbet == p1.cbet { p2.sbet = copysign(p1.sbet, p2.sbet) }
        } else if abs(p2.sbet) == -p1.sbet {
            p2.cbet = p1.cbet
        }
        p1.dn = (1 + ep2 * p1.sbet * p1.sbet).squareRoot()
        p2.dn = (1 + ep2 * p2.sbet * p2.sbet).squareRoot()

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var s12 = 0.0, sig12 = 0.0, arc = 0.0
        var iterations = 0
        var meridian = lat1 == -90 || slam12 == 0

        if meridian {
            // Along a meridian (or through a pole): α₁ = λ₁₂, α₂ = 0, solved in closed form.
            salp1 = slam12; calp1 = clam12
            salp2 = 0; calp2 = 1
            let ssig1 = p1.sbet, csig1 = calp1 * p1.cbet
            let ssig2 = p2.sbet, csig2 = calp2 * p2.cbet
            sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            var sb = scaledDistance(eps: n, sig12: sig12,
                                    ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2)
            let mb = scaledReducedLength(eps: n, sig12: sig12,
                                         ssig1: ssig1, csig1: csig1, dn1: p1.dn,
                                         ssig2: ssig2, csig2: csig2, dn2: p2.dn)
            if sig12 < Tolerance.sqrtEpsilon || mb >= 0 {
                if sig12 < 3 * Tolerance.tiny
                    || (sig12 < Tolerance.epsilon && (sb < 0 || mb < 0)) {
                    sig12 = 0
                    sb = 0
                }
                s12 = sb * b
                arc = sig12 / AngleMath.degree
            } else {
                // Past a conjugate point: the meridian is not the shortest path.
                meridian = false
            }
        }

        if !meridian && p1.sbet == 0 && (flattening <= 0 || lon12Supplement >= flattening * 180) {
            // Along the equator (both points on it and not too close to antipodal).
            salp1 = 1; calp1 = 0
            salp2 = 1; calp2 = 0
            s12 = equatorialRadius * lam12
            sig12 = lam12 / f1
            arc = lon12 / f1
        } else if !meridian {
            let start = inverseStart(p1, p2, lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short line solved on the scaled sphere.
                sig12 = start.sig12
                salp2 = start.salp2
                calp2 = start.calp2
                s12 = sig12 * b * start.dnm
                arc = sig12 / AngleMath.degree
            } else {
                let arcSol = newtonSolve(p1, p2, salp1: &salp1, calp1: &calp1,
                                         slam12: slam12, clam12: clam12, iterations: &iterations)
                salp2 = arcSol.salp2
                calp2 = arcSol.calp2
                sig12 = arcSol.sig12
                s12 = b * scaledDistance(eps: arcSol.eps, sig12: sig12,
                                         ssig1: arcSol.ssig1, csig1: arcSol.csig1,
                                         ssig2: arcSol.ssig2, csig2: arcSol.csig2)
                arc = sig12 / AngleMath.degree
            }
        }

        // Undo the rearrangement of the points.
        if swapped {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        let swapSign: Double = swapped ? -1 : 1
        salp1 *= swapSign * lonSign
        calp1 *= swapSign * latSign
        salp2 *= swapSign * lonSign
        calp2 *= swapSign * latSign
        return InverseSolution(distance: s12 + 0, sinAzimuth1: salp1, cosAzimuth1: calp1,
                               sinAzimuth2: salp2, cosAzimuth2: calp2,
                               arcDegrees: arc, iterations: iterations)
    }

    /// sin β and cos β of the reduced latitude (tan β = (1 − f) tan φ); dn is filled in later.
    @inline(__always)
    func reducedLatitude(_ latitude: Double) -> ReducedLatitude {
        var (s, c) = AngleMath.sinCos(degrees: latitude)
        s *= f1
        AngleMath.normalize(&s, &c)
        // Keep cos β positive so that poles are approached as a limit.
        return ReducedLatitude(sbet: s, cbet: max(Tolerance.tiny, c), dn: 1)
    }

    /// Newton's method for α₁ with the longitude mismatch as the function to zero.
    ///
    /// The root is kept bracketed in [α₁ᵃ, α₁ᵇ]; a step that leaves the bracket or a stalled
    /// Newton sequence falls back to bisection, so the loop always terminates.
    @inline(__always)
    func newtonSolve(_ p1: ReducedLatitude, _ p2: ReducedLatitude,
                     salp1: inout Double, calp1: inout Double,
                     slam12: Double, clam12: Double, iterations: inout Int) -> AuxiliaryArc
    {
        // The bracket on α₁, as (sin, cos): the mismatch is negative at a and positive at b.
        var salp1a = Tolerance.tiny, calp1a = 1.0
        var salp1b = Tolerance.tiny, calp1b = -1.0
        var tripNewton = false
        var tripBisection = false
        var count = 0
        while true {
            let arc = lambda12(p1, p2, salp1: salp1, calp1: calp1, slam12: slam12, clam12: clam12,
                               wantDerivative: count < Tolerance.newtonIterations)
            let v = arc.mismatch
            if tripBisection || !(abs(v) >= (tripNewton ? 8 : 1) * Tolerance.epsilon)
                || count == Tolerance.maxIterations {
                iterations = count
                return arc
            }
            // Update the bracket (ratios compare cot α₁).
            if v > 0 && (count > Tolerance.newtonIterations || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1; calp1b = calp1
            } else if v < 0 && (count > Tolerance.newtonIterations || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1; calp1a = calp1
            }
            count += 1
            if count <= Tolerance.newtonIterations && arc.derivative > 0 {
                let dalp1 = -v / arc.derivative
                if abs(dalp1) < Double.pi {
                    let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        salp1 = nsalp1
                        AngleMath.normalize(&salp1, &calp1)
                        // Near convergence, allow a slightly looser stop to avoid ping-pong.
                        tripNewton = abs(v) <= 16 * Tolerance.epsilon
                        continue
                    }
                }
            }
            // Bisection of the bracket.
            salp1 = (salp1a + salp1b) / 2
            calp1 = (calp1a + calp1b) / 2
            AngleMath.normalize(&salp1, &calp1)
            tripNewton = false
            tripBisection = abs(salp1a - salp1) + (calp1a - calp1) < Tolerance.bisection
                || abs(salp1 - salp1b) + (calp1 - calp1b) < Tolerance.bisection
        }
    }
}
