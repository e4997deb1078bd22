import Platform

/// Streams a GNSS track into a GPX 1.1 file, one `<trkpt>` per position, so any map tool can show
/// it. A new `<trkseg>` starts after a break in the fixes. The file appears only when `finish()`
/// succeeds.
///
/// ```swift
/// let gpx = try GPXWriter(path: "track.gpx", name: "heading.csv")
/// gpx.add(latitude: -33.87, longitude: 151.2, altitude: 12, milliseconds: t, newSegment: false)
/// try gpx.finish()
/// ```
public final class GPXWriter {
    public static let namespace = "http://www.topografix.com/GPX/1/1"
    private let out: AtomicFile
    private var points = 0
    public var pointCount: Int { points }

    public init(path: String, name: String) throws(FileError) {
        out = try AtomicFile(path: path)
        let title = xmlEscaped(name)
        out.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="lodestone" xmlns="\(Self.namespace)" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="\(Self.namespace) \(Self.namespace)/gpx.xsd">
            <metadata><name>\(title)</name></metadata>
            <trk>
            <name>\(title)</name>
            <trkseg>

            """)
    }

    /// Adds a position: degrees, metres (optional), time in ms since 1970 (UTC).
    public func add(latitude: Double, longitude: Double, altitude: Double?, milliseconds: Int64, newSegment: Bool) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return }
        if newSegment && points > 0 { out.write("</trkseg>\n<trkseg>\n") }
        var lon = longitude.truncatingRemainder(dividingBy: 360)
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        var lonText = coordinate(lon)
        if lonText == "180" { lonText = "-180" }   // GPX longitudes lie in [−180, 180)
        var line = "<trkpt lat=\"" + coordinate(latitude) + "\" lon=\"" + lonText + "\">"
        if let altitude, altitude.isFinite { line += "<ele>" + plain(altitude, decimals: 3) + "</ele>" }
        line += "<time>" + TimeText.string(milliseconds: milliseconds) + "</time></trkpt>\n"
        out.write(line)
        points += 1
    }

    /// Closes the document and puts the file in place.
    public func finish() throws(FileError) {
        out.write("</trkseg>\n</trk>\n</gpx>\n")
        try out.commit()
    }

    /// Finite degrees (checked by `add`) to eight decimals, about a millimetre.
    private func coordinate(_ degrees: Double) -> String { plain(degrees, decimals: 8) }
}
