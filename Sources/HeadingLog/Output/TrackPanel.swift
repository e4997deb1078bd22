import Glibc
import Platform

/// The GNSS track drawn in a local equirectangular projection around its mean position: metres
/// east and north, one scale for both axes (so shapes are true), north up, with a scale bar.
enum TrackPanel {
    /// Mean Earth radius, metres (IUGG).
    static let earthRadius = 6_371_008.8

    /// Metres east and north of `origin` (degrees), for points near it.
    static func project(_ p: TrackSample.Point, around origin: TrackSample.Point) -> (x: Double, y: Double) {
        let k = Double.pi / 180 * earthRadius
        return ((p.longitude - origin.longitude) * k * cos(origin.latitude * .pi / 180),
                (p.latitude - origin.latitude) * k)
    }

    static func render(_ track: TrackSample, top: Double, left: Double, width: Double, height: Double) -> String {
        var s = "<g id=\"track\">\n"
        s += "<text x=\"\(fixed(left, 1))\" y=\"\(fixed(top - 8, 1))\" fill=\"#333333\">GNSS track (north up, metres from the mean position)</text>\n"
        s += "<rect x=\"\(fixed(left, 1))\" y=\"\(fixed(top, 1))\" width=\"\(fixed(width, 1))\" height=\"\(fixed(height, 1))\" fill=\"none\" stroke=\"#888888\"/>\n"
        let points = track.pointsWithLast
        guard let origin = track.mean, !points.isEmpty else {
            s += "<text x=\"\(fixed(left + width / 2, 1))\" y=\"\(fixed(top + height / 2, 1))\" text-anchor=\"middle\" fill=\"#333333\">no GNSS fixes in this log</text>\n"
            return s + "</g>\n"
        }
        let xy = points.map { project($0, around: origin) }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for p in xy {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let margin = 20.0
        let spanX = max(maxX - minX, 1), spanY = max(maxY - minY, 1)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)   // px per metre, both axes
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        func px(_ p: (x: Double, y: Double)) -> (Double, Double) {
            (left + width / 2 + (p.x - cx) * scale, top + height / 2 - (p.y - cy) * scale)
        }
        var path = SVGPath()
        for (i, p) in xy.enumerated() {
            let (x, y) = px(p)
            if i == 0 || points[i].startsSegment { path.move(x, y) } else { path.line(x, y) }
        }
        s += "<path id=\"track-path\" d=\"\(path.d)\" fill=\"none\" stroke=\"\(SVGPlot.trackColor)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>\n"
        if let first = xy.first, let last = xy.last {
            let (x0, y0) = px(first), (x1, y1) = px(last)
            s += "<circle id=\"track-start\" cx=\"\(fixed(x0, 1))\" cy=\"\(fixed(y0, 1))\" r=\"4\" fill=\"#27ae60\"/>\n"
            s += "<circle id=\"track-end\" cx=\"\(fixed(x1, 1))\" cy=\"\(fixed(y1, 1))\" r=\"4\" fill=\"#c0392b\"/>\n"
        }
        // Scale bar: a round length near a fifth of the panel.
        let target = width / 5 / scale
        let base = pow(10, log10(target).rounded(.down))
        var length = base
        for step in [2.0, 5.0] where base * step <= target { length = base * step }
        let barX = left + 12, barY = top + height - 12
        s += "<line id=\"scale-bar\" x1=\"\(fixed(barX, 1))\" y1=\"\(fixed(barY, 1))\" x2=\"\(fixed(barX + length * scale, 1))\" y2=\"\(fixed(barY, 1))\" stroke=\"#333333\" stroke-width=\"2\"/>\n"
        let lengthText = length >= 1000 ? plain(length / 1000) + " km" : plain(length) + " m"
        s += "<text x=\"\(fixed(barX, 1))\" y=\"\(fixed(barY - 6, 1))\" fill=\"#333333\">\(lengthText)</text>\n"
        s += "<text x=\"\(fixed(left + width - 12, 1))\" y=\"\(fixed(top + 20, 1))\" text-anchor=\"end\" fill=\"#333333\">N ↑</text>\n"
        return s + "</g>\n"
    }
}
