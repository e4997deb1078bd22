/// atan2(y, x) in degrees, in (−180, 180], for finite inputs; (0, 0) gives 0.
///
/// The per-sample path calls this twice (heading, inclination), so it avoids the general libm
/// routine: reduce to t = min/max ∈ [0, 1], then below tan 15° with atan t = 30° + atan((√3·t − 1)/(√3 + t)),
/// then an odd series to u¹⁷, whose first omitted term is under 10⁻¹² rad (10⁻¹⁰ degrees).
@usableFromInline @inline(__always)
func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    let ax = abs(x), ay = abs(y)
    if ax == 0 && ay == 0 { return 0 }
    let swapped = ay > ax
    let t = swapped ? ax / ay : ay / ax
    var base = 0.0, u = t
    if t > 0.267_949_192_431_122_7 {  // tan 15°
        let root3 = 1.732_050_807_568_877_2
        u = (t * root3 - 1) / (root3 + t)
        base = Double.pi / 6
    }
    let u2 = u * u
    var a = base + u * (1 - u2 * (1.0 / 3 - u2 * (1.0 / 5 - u2 * (1.0 / 7 - u2 * (1.0 / 9
        - u2 * (1.0 / 11 - u2 * (1.0 / 13 - u2 * (1.0 / 15 - u2 * (1.0 / 17)))))))))
    if swapped { a = Double.pi / 2 - a }
    if x < 0 { a = Double.pi - a }
    if y < 0 { a = -a }
    return a * (180 / Double.pi)
}
