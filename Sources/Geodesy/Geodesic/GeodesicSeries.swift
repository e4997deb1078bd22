/// Series expansions of the geodesic integrals, to sixth order.
///
/// Notation (Karney 2013): σ is the arc length on the auxiliary sphere, ε the expansion parameter
/// ε = k² / (2(1 + √(1 + k²)) + k²) with k = e′ cos α₀, and n the third flattening. The distance
/// integral I₁ = A₁(σ + Σ C₁ₗ sin 2lσ), the reduced-length integral I₂ = A₂(σ + Σ C₂ₗ sin 2lσ),
/// and the longitude integral I₃ = A₃(σ + Σ C₃ₗ sin 2lσ). The coefficients below are the Taylor
/// series in ε (and n for I₃) truncated at ε⁶; for WGS84 the solutions built on them match
/// Karney's high-precision test set to a few nanometres (see the GeodTest tests).
///
/// Every series lives in fixed-size value types: no arrays and no heap traffic in the solver.

/// Six Fourier coefficients c₁…c₆ of a sine series Σ cₗ sin 2lσ.
struct SineSeries6 {
    var c1, c2, c3, c4, c5, c6: Double

    /// Σₗ cₗ sin 2lσ given sin σ and cos σ, by Clenshaw summation.
    @inline(__always)
    func sum(sin s: Double, cos c: Double) -> Double {
        let twoCos2 = 2 * (c - s) * (c + s)  // 2 cos 2σ
        let b6 = c6
        let b5 = twoCos2 * b6 + c5
        let b4 = twoCos2 * b5 - b6 + c4
        let b3 = twoCos2 * b4 - b5 + c3
        let b2 = twoCos2 * b3 - b4 + c2
        let b1 = twoCos2 * b2 - b3 + c1
        return 2 * s * c * b1  // sin 2σ · b₁
    }
}

/// Five Fourier coefficients c₁…c₅ of a sine series Σ cₗ sin 2lσ.
struct SineSeries5 {
    var c1, c2, c3, c4, c5: Double

    /// Σₗ cₗ sin 2lσ given sin σ and cos σ, by Clenshaw summation.
    @inline(__always)
    func sum(sin s: Double, cos c: Double) -> Double {
        let twoCos2 = 2 * (c - s) * (c + s)
        let b5 = c5
        let b4 = twoCos2 * b5 + c4
        let b3 = twoCos2 * b4 - b5 + c3
        let b2 = twoCos2 * b3 - b4 + c2
        let b1 = twoCos2 * b2 - b3 + c1
        return 2 * s * c * b1
    }
}

enum GeodesicSeries {
    /// A₁ − 1, where (1 − ε) A₁ = 1 + ε²/4 + ε⁴/64 + ε⁶/256.
    @inline(__always)
    static func a1Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ, the Fourier coefficients of the distance integral.
    @inline(__always)
    static func c1(_ eps: Double) -> SineSeries6 {
        let e2 = eps * eps
        let e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e3 * e3
        return SineSeries6(
            c1: eps * (e2 * (6 - e2) - 16) / 32,
            c2: e2 * (e2 * (64 - 9 * e2) - 128) / 2048,
            c3: e3 * (9 * e2 - 16) / 768,
            c4: e4 * (3 * e2 - 5) / 512,
            c5: -7 * e5 / 1280,
            c6: -7 * e6 / 2048)
    }

    /// C′₁ₗ, the coefficients of the reverted series that gives σ from the scaled distance τ.
    @inline(__always)
    static func c1Reverted(_ eps: Double) -> SineSeries6 {
        let e2 = eps * eps
        let e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e3 * e3
        return SineSeries6(
            c1: eps * (e2 * (205 * e2 - 432) + 768) / 1536,
            c2: e2 * (e2 * (4005 * e2 - 4736) + 3840) / 12288,
            c3: e3 * (116 - 225 * e2) / 384,
            c4: e4 * (2695 - 7173 * e2) / 7680,
            c5: 3467 * e5 / 7680,
            c6: 38081 * e6 / 61440)
    }

    /// A₂ − 1, where A₂ = (1 − ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256), rearranged as
    /// (1 + ε) A₂ = 1 − 3ε²/4 − 7ε⁴/64 − 11ε⁶/256.
    @inline(__always)
    static func a2Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂ₗ, the Fourier coefficients of the reduced-length integral.
    @inline(__always)
    static func c2(_ eps: Double) -> SineSeries6 {
        let e2 = eps * eps
        let e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e3 * e3
        return SineSeries6(
            c1: eps * (e2 * (e2 + 2) + 16) / 32,
            c2: e2 * (e2 * (35 * e2 + 64) + 384) / 2048,
            c3: e3 * (15 * e2 + 80) / 768,
            c4: e4 * (7 * e2 + 35) / 512,
            c5: 63 * e5 / 1280,
            c6: 77 * e6 / 2048)
    }
}

/// The ellipsoid-dependent part of the longitude integral I₃: polynomials in ε whose
/// coefficients are polynomials in the third flattening n, evaluated once per ellipsoid.
struct LongitudeSeriesCoefficients: Sendable {
    /// A₃ = Σⱼ aⱼ εʲ, j = 0…5.
    let a0, a1, a2, a3, a4, a5: Double
    /// C₃ₗ = Σⱼ c_{l,j} εʲ for j = l…5.
    let c11, c12, c13, c14, c15: Double
    let c22, c23, c24, c25: Double
    let c33, c34, c35: Double
    let c44, c45: Double
    let c55: Double

    init(thirdFlattening n: Double) {
        let n2 = n * n
        a0 = 1
        a1 = -(1 - n) / 2
        a2 = -(2 + n - 3 * n2) / 8
        a3 = -(1 + 3 * n + n2) / 16
        a4 = -(3 + 2 * n) / 64
        a5 = -3.0 / 128

        c11 = (1 - n) / 4
        c12 = (1 - n2) / 8
        c13 = (3 + 3 * n - n2) / 64
        c14 = (5 + 2 * n) / 128
        c15 = 3.0 / 128

        c22 = (2 - 3 * n + n2) / 32
        c23 = (3 - 2 * n - 3 * n2) / 64
        c24 = (3 + n) / 128
        c25 = 5.0 / 256

        c33 = (5 - 9 * n + 5 * n2) / 192
        c34 = (9 - 10 * n) / 384
        c35 = 7.0 / 512

        c44 = (7 - 14 * n) / 512
        c45 = 7.0 / 512

        c55 = 21.0 / 2560
    }

    /// A₃(ε).
    @inline(__always)
    func a3(_ eps: Double) -> Double {
        a0 + eps * (a1 + eps * (a2 + eps * (a3 + eps * (a4 + eps * a5))))
    }

    /// C₃ₗ(ε), l = 1…5.
    @inline(__always)
    func c3(_ eps: Double) -> SineSeries5 {
        let e2 = eps * eps
        let e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps
        return SineSeries5(
            c1: eps * (c11 + eps * (c12 + eps * (c13 + eps * (c14 + eps * c15)))),
            c2: e2 * (c22 + eps * (c23 + eps * (c24 + eps * c25))),
            c3: e3 * (c33 + eps * (c34 + eps * c35)),
            c4: e4 * (c44 + eps * c45),
            c5: e5 * c55)
    }
}
