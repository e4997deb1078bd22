import Linear
import Platform

/// Builds the `d` attribute of an SVG path from absolute moves and lines, coordinates to 0.1 px.
struct SVGPath {
    private(set) var d = ""
    private(set) var segments = 0

    mutating func move(_ x: Double, _ y: Double) {
        d += (d.isEmpty ? "M" : " M") + fixed(x, 1) + " " + fixed(y, 1)
    }

    mutating func line(_ x: Double, _ y: Double) {
        d += " L" + fixed(x, 1) + " " + fixed(y, 1)
        segments += 1
    }

    var isEmpty: Bool { segments == 0 }
}

/// Draws an angle series (degrees) into a band of `height` pixels from `top`, 0° at the bottom and
/// 360° at the top. Values are unwrapped (they may leave [0, 360)); a segment that crosses north is
/// cut where it leaves the band and continues from the opposite edge, so no line ever spans the
/// band from 0 to 360.
struct WrappedAnglePath {
    let top: Double
    let height: Double
    var path = SVGPath()
    private var pen: (x: Double, u: Double)?

    init(top: Double, height: Double) {
        self.top = top
        self.height = height
    }

    private func y(_ wrapped: Double) -> Double { top + height * (1 - wrapped / 360) }

    private static func band(_ u: Double) -> Double { (u / 360).rounded(.down) }

    /// Lifts the pen and puts it at (x, u).
    mutating func move(_ x: Double, _ u: Double) {
        path.move(x, y(u - 360 * Self.band(u)))
        pen = (x, u)
    }

    /// Draws from the pen to (x, u), breaking at every crossing of 0°/360°.
    mutating func line(_ x: Double, _ u: Double) {
        guard let start = pen else { move(x, u); return }
        var k = Self.band(start.u)
        let target = Self.band(u)
        while k != target {
            let up = target > k
            let boundary = 360 * (up ? k + 1 : k)
            let f = (boundary - start.u) / (u - start.u)
            let xc = start.x + (x - start.x) * f
            path.line(xc, y(up ? 360 : 0))
            k += up ? 1 : -1
            path.move(xc, y(up ? 0 : 360))
        }
        path.line(x, y(u - 360 * target))
        pen = (x, u)
    }

    /// The unwrapped value continuing from the pen towards `wrapped` by the shortest turn.
    func continuing(_ wrapped: Double) -> Double {
        guard let pen else { return wrapped }
        return pen.u + angleDifference(wrapped, pen.u - 360 * Self.band(pen.u))
    }
}
