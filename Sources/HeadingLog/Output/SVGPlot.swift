import Glibc
import Platform

/// Renders a log's plot data as a stand-alone SVG: heading over time (true and magnetic), field
/// strength over time, and the GNSS track in a local projection with equal scales in x and y.
/// Hand-written, well-formed XML; its size depends on the plot width, not on the log's length.
///
/// ```swift
/// let svg = SVGPlot.render(analysis.plot!)
/// try Files.writeAtomically("plot.svg", contents: svg)
/// ```
public enum SVGPlot {
    static let width = 960.0, height = 1010.0
    static let left = 64.0, right = 24.0
    /// Pixel columns of the time plots (the downsampling target).
    public static let plotWidth = 872
    static let headingTop = 52.0, headingHeight = 260.0
    static let fieldTop = 364.0, fieldHeight = 160.0
    static let trackTop = 578.0, trackHeight = 400.0
    static let trueColor = "#c0392b", magneticColor = "#2471a3", fieldColor = "#1e8449", trackColor = "#6c3483"

    /// The whole SVG document.
    public static func render(_ plot: PlotData) -> String {
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <title>Lodestone log \(xmlEscaped(plot.title))</title>
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>
            <text x="\(Int(left))" y="24" font-size="16">\(xmlEscaped(plot.title))</text>

            """
        let timeAxis = TimeAxis(plot.series)
        svg += headingPanel(plot, timeAxis)
        svg += fieldPanel(plot, timeAxis)
        svg += TrackPanel.render(plot.track, top: trackTop, left: left, width: width - left - right, height: trackHeight)
        svg += "</svg>\n"
        return svg
    }

    /// Maps times (ms) to x across the plot width.
    struct TimeAxis {
        let start: Int64, end: Int64

        init(_ series: PlotSeries) {
            start = series.origin ?? 0
            var last = start
            for b in 0..<series.used {
                for kind in PlotSeriesKind.allCases {
                    let e = series.extent(kind, bucket: b)
                    if e.count > 0 && e.lastTime > last { last = e.lastTime }
                }
            }
            end = last
        }

        func x(_ t: Int64) -> Double {
            guard end > start else { return left + Double(plotWidth) / 2 }
            let f = Double(t - start) / Double(end - start)
            return left + Double(plotWidth) * min(1, max(0, f))
        }
    }

    private static func frame(_ top: Double, _ h: Double) -> String {
        "<rect x=\"\(fixed(left, 1))\" y=\"\(fixed(top, 1))\" width=\"\(plotWidth)\" height=\"\(fixed(h, 1))\" "
            + "fill=\"none\" stroke=\"#888888\"/>\n"
    }

    private static func label(_ x: Double, _ y: Double, _ text: String, anchor: String = "start",
                              color: String = "#333333") -> String {
        "<text x=\"\(fixed(x, 1))\" y=\"\(fixed(y, 1))\" text-anchor=\"\(anchor)\" fill=\"\(color)\">\(xmlEscaped(text))</text>\n"
    }

    private static func gridLine(_ y: Double) -> String {
        "<line x1=\"\(fixed(left, 1))\" y1=\"\(fixed(y, 1))\" x2=\"\(fixed(left + Double(plotWidth), 1))\" "
            + "y2=\"\(fixed(y, 1))\" stroke=\"#dddddd\"/>\n"
    }

    private static func timeLabels(_ axis: TimeAxis, below y: Double) -> String {
        label(left, y + 16, TimeText.string(milliseconds: axis.start))
            + label(left + Double(plotWidth), y + 16, TimeText.string(milliseconds: axis.end), anchor: "end")
    }

    private static func headingPanel(_ plot: PlotData, _ axis: TimeAxis) -> String {
        var s = "<g id=\"heading\">\n"
        s += label(left, headingTop - 8, "heading (°): true and magnetic")
        s += frame(headingTop, headingHeight)
        for (value, name) in [(0.0, "0 N"), (90, "90 E"), (180, "180 S"), (270, "270 W"), (360, "360 N")] {
            let y = headingTop + headingHeight * (1 - value / 360)
            s += gridLine(y) + label(left - 6, y + 4, name, anchor: "end")
        }
        var any = false
        for (kind, name, color) in [(PlotSeriesKind.magneticHeading, "magnetic", magneticColor),
                                    (.trueHeading, "true", trueColor)] where plot.series.hasData(kind) {
            let d = headingPath(plot, kind, axis)
            s += "<path id=\"heading-\(name)\" class=\"\(name)\" d=\"\(d)\" fill=\"none\" stroke=\"\(color)\" "
                + "stroke-width=\"1.2\" stroke-linejoin=\"round\"/>\n"
            any = true
        }
        s += label(left + Double(plotWidth) - 140, headingTop - 8, "true", color: trueColor)
        s += label(left + Double(plotWidth) - 90, headingTop - 8, "magnetic", color: magneticColor)
        if !any { s += label(left + Double(plotWidth) / 2, headingTop + headingHeight / 2, "no heading in this log", anchor: "middle") }
        s += timeLabels(axis, below: headingTop + headingHeight)
        return s + "</g>\n"
    }

    /// The heading series as one path: M4 points per bucket, unwrapped so lines take the short way
    /// round, cut at north, and lifted over gaps in the log.
    static func headingPath(_ plot: PlotData, _ kind: PlotSeriesKind, _ axis: TimeAxis) -> String {
        var path = WrappedAnglePath(top: headingTop, height: headingHeight)
        var lastTime: Int64?
        for b in 0..<plot.series.used {
            let e = plot.series.extent(kind, bucket: b)
            guard e.count > 0 else { continue }
            let gap = lastTime.map { Double(e.firstTime - $0) > (plot.gapThreshold ?? .infinity) } ?? true
            let shift = gap ? 0 : path.continuing(e.first) - e.first
            for (i, p) in e.points.enumerated() {
                let x = axis.x(p.time), u = p.value + shift
                if i == 0 && gap { path.move(x, u) } else { path.line(x, u) }
            }
            lastTime = e.lastTime
        }
        return path.path.d
    }

    private static func fieldPanel(_ plot: PlotData, _ axis: TimeAxis) -> String {
        var s = "<g id=\"field\">\n"
        s += label(left, fieldTop - 8, "field strength (µT)")
        s += frame(fieldTop, fieldHeight)
        var lo = Double.infinity, hi = -Double.infinity
        for b in 0..<plot.series.used {
            let e = plot.series.extent(.field, bucket: b)
            if e.count > 0 { lo = min(lo, e.min); hi = max(hi, e.max) }
        }
        guard lo.isFinite, hi.isFinite, (hi - lo).isFinite else {
            s += label(left + Double(plotWidth) / 2, fieldTop + fieldHeight / 2, "no field strength in this log", anchor: "middle")
            return s + timeLabels(axis, below: fieldTop + fieldHeight) + "</g>\n"
        }
        // Half a µT of margin at least, and never less than the values' own rounding (far from 0 a
        // fixed pad may vanish in it and leave a zero span).
        let pad = max(0.5, (hi - lo) * 0.05, max(abs(lo), abs(hi)) * 1e-9)
        lo -= pad
        hi += pad
        func y(_ v: Double) -> Double { fieldTop + fieldHeight * (1 - (v - lo) / (hi - lo)) }
        for f in [0.0, 0.5, 1.0] {
            let v = lo + (hi - lo) * f
            s += gridLine(y(v)) + label(left - 6, y(v) + 4, fixed(v, 1), anchor: "end")
        }
        var path = SVGPath()
        var lastTime: Int64?
        for b in 0..<plot.series.used {
            let e = plot.series.extent(.field, bucket: b)
            guard e.count > 0 else { continue }
            let gap = lastTime.map { Double(e.firstTime - $0) > (plot.gapThreshold ?? .infinity) } ?? true
            for (i, p) in e.points.enumerated() {
                if i == 0 && gap { path.move(axis.x(p.time), y(p.value)) } else { path.line(axis.x(p.time), y(p.value)) }
            }
            lastTime = e.lastTime
        }
        s += "<path id=\"field-strength\" class=\"field\" d=\"\(path.d)\" fill=\"none\" stroke=\"\(fieldColor)\" stroke-width=\"1.2\"/>\n"
        return s + timeLabels(axis, below: fieldTop + fieldHeight) + "</g>\n"
    }
}
