import Foundation
import Linear
@testable import Geodesy

/// One line of Karney's GeodTest-short.dat: the direct problem (lat1, lon1, azi1, s12) →
/// (lat2, lon2, azi2) solved in high precision, plus the arc length a12 (degrees) and the
/// reduced length m12 (metres).
struct GeodTestLine {
    var lat1, lon1, azi1, lat2, lon2, azi2, s12, a12, m12: Double
}

/// Loads Tests/Fixtures/geodesic/GeodTest-short.dat (10 000 lines).
func loadGeodTest() throws -> [GeodTestLine] {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/geodesic/GeodTest-short.dat")
    let text = try String(contentsOf: url, encoding: .utf8)
    var lines: [GeodTestLine] = []
    for row in text.split(separator: "\n") {
        let f = row.split(separator: " ").compactMap { Double($0) }
        guard f.count >= 9 else { continue }
        lines.append(GeodTestLine(lat1: f[0], lon1: f[1], azi1: f[2], lat2: f[3], lon2: f[4],
                                  azi2: f[5], s12: f[6], a12: f[7], m12: f[8]))
    }
    return lines
}

/// The smallest difference between two angles in degrees, in [0, 180].
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d < -180 { d += 360 }
    return abs(d)
}
