import Foundation
import Testing
@testable import Terminal

/// Snapshot files live beside this file in Snapshots/. Set LODESTONE_UPDATE_SNAPSHOTS=1 to rewrite
/// them from the current renderer (then review the diff before committing).
enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static var updating: Bool { ProcessInfo.processInfo.environment["LODESTONE_UPDATE_SNAPSHOTS"] == "1" }

    /// Compares `lines` with the stored snapshot `name` exactly (or rewrites it when updating).
    static func check(_ lines: [String], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = lines.joined(separator: "\n") + "\n"
        let url = folder.appendingPathComponent(name + ".txt")
        if updating {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            #expect(throws: Never.self, sourceLocation: sourceLocation) { try text.write(to: url, atomically: true, encoding: .utf8) }
            return
        }
        guard let stored = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing snapshot \(name).txt; run with LODESTONE_UPDATE_SNAPSHOTS=1 and review it",
                         sourceLocation: sourceLocation)
            return
        }
        if stored != text {
            let storedLines = stored.split(separator: "\n", omittingEmptySubsequences: false)
            let first = Array(zip(storedLines, text.split(separator: "\n", omittingEmptySubsequences: false)))
                .firstIndex { $0.0 != $0.1 } ?? -1
            Issue.record("snapshot \(name) differs (first at line \(first)):\n\(text)", sourceLocation: sourceLocation)
        }
    }
}

/// A dashboard state with every panel filled.
func fullState() -> DashboardState {
    var s = DashboardState()
    s.magneticHeading = 123.4
    s.trueHeading = 136.0
    s.pointName = "SE"
    s.quadrant = "S 56.6° E"
    s.accuracy = 2.5
    s.declination = 12.6
    s.declinationSource = "WMM2025 at GNSS fix"
    s.fieldStrength = 57.2
    s.roll = 1.2
    s.pitch = -0.5
    s.sensor = SensorPanel(chip: "QMC5883L", bus: 1, address: 0x0d, rateHz: 50, errorCount: 0, status: "ok")
    s.gnss = GNSSPanel(fixMode: "3D fix", latitude: -33.8688, longitude: 151.2093, speed: 1.2, course: 123,
                       horizontalError: 4.2, ageSeconds: 0.8, stale: false, connection: "gpsd connected")
    s.reports = (1...6).map { "12:0\($0):00  moved \($0 * 12) m toward 123° SE" }
    return s
}

/// The text of a line with SGR sequences removed.
func stripSGR(_ line: String) -> String {
    line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}
