/// A field vector in nT (or nT/year): north, east, down.
struct FieldVector {
    var north = 0.0
    var east = 0.0
    var down = 0.0
}

/// The spherical harmonic synthesis of a degree-N main-field model, allocation-free.
///
/// Schmidt semi-normalised associated Legendre functions are written P(n,m) = cos^m φ′ · Q(n,m),
/// with Q(n,m) a polynomial in t = sin φ′. The recursion runs on Q and on dQ/dt, order by order
/// (m outer, n inner), so nothing is stored between orders and no term ever divides by cos φ′:
///
///   Q(m,m) = c(m) (c(0) = c(1) = 1, c(m) = c(m−1) √((2m−1)/2m)),
///   Q(n,m) = α t Q(n−1,m) − β Q(n−2,m),  α = (2n−1)/√(n²−m²),  β = √((n−1)²−m²)/√(n²−m²),
///   dP/dθ  = cos^(m−1) φ′ · (m t Q − cos² φ′ dQ/dt)   (θ = colatitude; −cos φ′ dQ/dt when m = 0),
///   P/cos φ′ = cos^(m−1) φ′ · Q.
///
/// The last line is the Y′ term of the field: with it, the field is smooth through both
/// geographic poles and exactly equals its limit there.
struct HarmonicSynthesis: Sendable {
    let maxDegree: Int
    /// Order-major (m = 0...N, then n = m...N) rows of 6 doubles: α, β, g, h, gDot, hDot.
    /// Row (n = m) holds α = 0, β = −c(m), so that the recursion, started from
    /// Q(n−1) = 0, Q(n−2) = 1, yields Q(m,m) = c(m). Row (0, 0) has zero coefficients.
    let rows: [Double]

    static let stride = 6

    init(coefficients: [GaussCoefficient], maxDegree: Int) {
        self.maxDegree = maxDegree
        var lookup = [Int: GaussCoefficient]()
        for c in coefficients { lookup[c.n * 1000 + c.m] = c }
        var rows = [Double]()
        rows.reserveCapacity((maxDegree + 1) * (maxDegree + 2) / 2 * Self.stride)
        var sectoral = 1.0
        for m in 0...maxDegree {
            if m >= 2 { sectoral *= (Double(2 * m - 1) / Double(2 * m)).squareRoot() }
            for n in m...maxDegree {
                let alpha: Double, beta: Double
                if n == m {
                    alpha = 0
                    beta = -sectoral
                } else {
                    let nn = Double(n * n - m * m)
                    alpha = Double(2 * n - 1) / nn.squareRoot()
                    beta = (Double((n - 1) * (n - 1) - m * m) / nn).squareRoot()
                }
                let c = lookup[n * 1000 + m]
                rows += [alpha, beta, c?.g ?? 0, c?.h ?? 0, c?.gDot ?? 0, c?.hDot ?? 0]
            }
        }
        self.rows = rows
    }

    /// The geocentric field (X′, Y′, Z′) at `years` after the epoch.
    @inline(never)
    func field(at p: GeocentricPosition, years: Double) -> FieldVector {
        synthesize(at: p, years: years, secular: false).field
    }

    /// The geocentric field and its yearly rate of change.
    @inline(never)
    func fieldAndRate(at p: GeocentricPosition, years: Double) -> (field: FieldVector, rate: FieldVector) {
        synthesize(at: p, years: years, secular: true)
    }

    @inline(__always)
    private func synthesize(
        at p: GeocentricPosition, years: Double, secular: Bool
    ) -> (field: FieldVector, rate: FieldVector) {
        let ratio = Earth.referenceRadius / p.radius
        let t = p.sinLatitude
        let u = p.cosLatitude
        let u2 = u * u
        let cosL = p.cosLongitude
        let sinL = p.sinLongitude
        let top = maxDegree
        var f = FieldVector()
        var r = FieldVector()
        rows.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var row = base
            var cm = 1.0, sm = 0.0          // cos mλ, sin mλ
            var uPower = 1.0                // cos^(m−1) φ′ for m ≥ 1
            var rhoStart = ratio            // becomes (a/r)^(m+2) at order m
            for m in 0...top {
                if m >= 1 {
                    (cm, sm) = (cm * cosL - sm * sinL, sm * cosL + cm * sinL)
                }
                if m >= 2 { uPower *= u }
                rhoStart *= ratio
                // Sums over n of ρ·G·Q, ρ·H·Q, ρ·G·Q′, ρ·H·Q′, (n+1)ρ·G·Q, (n+1)ρ·H·Q.
                var a1 = 0.0, a2 = 0.0, b1 = 0.0, b2 = 0.0, c1 = 0.0, c2 = 0.0
                var sa1 = 0.0, sa2 = 0.0, sb1 = 0.0, sb2 = 0.0, sc1 = 0.0, sc2 = 0.0
                var q1 = 0.0, q2 = 1.0, d1 = 0.0, d2 = 0.0
                var rho = rhoStart
                var nPlusOne = Double(m + 1)
                var n = m
                while n <= top {
                    let alpha = row[0], beta = row[1]
                    let q = alpha * t * q1 - beta * q2
                    let d = alpha * (q1 + t * d1) - beta * d2
                    q2 = q1; q1 = q
                    d2 = d1; d1 = d
                    let gDot = row[4], hDot = row[5]
                    let g = row[2] + years * gDot
                    let h = row[3] + years * hDot
                    let rq = rho * q, rd = rho * d
                    a1 += g * rq; a2 += h * rq
                    b1 += g * rd; b2 += h * rd
                    c1 += nPlusOne * g * rq; c2 += nPlusOne * h * rq
                    if secular {
                        sa1 += gDot * rq; sa2 += hDot * rq
                        sb1 += gDot * rd; sb2 += hDot * rd
                        sc1 += nPlusOne * gDot * rq; sc2 += nPlusOne * hDot * rq
                    }
                    rho *= ratio
                    nPlusOne += 1
                    row += Self.stride
                    n += 1
                }
                Self.combine(&f, m: m, cm: cm, sm: sm, t: t, u: u, u2: u2, uPower: uPower,
                             a: (a1, a2), b: (b1, b2), c: (c1, c2))
                if secular {
                    Self.combine(&r, m: m, cm: cm, sm: sm, t: t, u: u, u2: u2, uPower: uPower,
                                 a: (sa1, sa2), b: (sb1, sb2), c: (sc1, sc2))
                }
            }
        }
        return (f, r)
    }

    /// Adds one order's contribution to X′ (north), Y′ (east), Z′ (down).
    @inline(__always)
    private static func combine(
        _ v: inout FieldVector, m: Int, cm: Double, sm: Double, t: Double, u: Double, u2: Double,
        uPower: Double, a: (Double, Double), b: (Double, Double), c: (Double, Double)
    ) {
        if m == 0 {
            v.north -= u * b.0
            v.down -= c.0
        } else {
            let md = Double(m)
            let aCos = cm * a.0 + sm * a.1
            let bCos = cm * b.0 + sm * b.1
            v.north += uPower * (md * t * aCos - u2 * bCos)
            v.east += md * uPower * (sm * a.0 - cm * a.1)
            v.down -= uPower * u * (cm * c.0 + sm * c.1)
        }
    }
}
