import Attitude
import Foundation
import Linear
import Testing

/// The filter's outputs on the BROAD excerpts against the ones it gave before its hot path was
/// rewritten for speed (Fixtures/broad/attitude_filter_reference.csv, see SOURCES.md there): the same
/// to 1e-9° in heading, roll and pitch, 1e-9 relative in the accuracy, the same flags, with and
/// without the gyro. A faster filter must be the same filter.
@Suite struct FilterReferenceTests {
    static let file = BroadExcerpt.folder.appendingPathComponent("attitude_filter_reference.csv")

    /// Which rows are kept: every 4th with the gyro, every 8th without, and each run's last.
    static func kept(_ row: Int, of count: Int, gyro: Bool) -> Bool { row % (gyro ? 4 : 8) == 0 || row == count - 1 }

    static func format(_ trial: String, gyro: Bool, row: Int, _ e: AttitudeEstimate) -> String {
        let heading = e.headingDegrees.map { String(format: "%.12f", $0) } ?? "nan"
        return "\(trial),\(gyro ? 1 : 0),\(row),\(heading),\(String(format: "%.12f", e.rollDegrees)),"
            + "\(String(format: "%.12f", e.pitchDegrees)),\(String(format: "%.13e", e.accuracyDegrees)),\(e.flags.rawValue)"
    }

    /// Every kept row of every trial, in the file's order: (key "trial,gyro,row", estimate).
    static func run() throws -> [(key: String, estimate: AttitudeEstimate)] {
        var out: [(String, AttitudeEstimate)] = []
        for trial in BroadTests.trials {
            let rows = try BroadExcerpt.load(trial: trial).rows
            for gyro in [true, false] {
                var filter = AttitudeFilter()
                for (i, r) in rows.enumerated() {
                    filter.update(time: r.time, gyroscope: gyro ? r.gyro : nil, accelerometer: r.accelerometer,
                                  magnetometer: r.magnetometer)
                    if kept(i, of: rows.count, gyro: gyro) { out.append(("\(trial),\(gyro ? 1 : 0),\(i)", filter.estimate)) }
                }
            }
        }
        return out
    }

    @Test func outputsMatchTheRecordedReference() throws {
        let results = try Self.run()
        if ProcessInfo.processInfo.environment["LODESTONE_RECORD_ATTITUDE_REFERENCE"] != nil {
            let lines = results.map { r -> String in
                let p = r.key.split(separator: ",")
                return Self.format(String(p[0]), gyro: p[1] == "1", row: Int(p[2])!, r.estimate)
            }
            let text = "trial,gyro,row,heading_deg,roll_deg,pitch_deg,accuracy_deg,flags\n" + lines.joined(separator: "\n") + "\n"
            try text.write(to: Self.file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(lines.count) rows into \(Self.file.path); unset LODESTONE_RECORD_ATTITUDE_REFERENCE to compare")
            return
        }
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let reference = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        try #require(reference.count == results.count, "\(reference.count) reference rows, \(results.count) computed")
        try #require(reference.count > 3000)
        var worst = (angle: 0.0, accuracy: 0.0)
        var mismatches = 0
        for (fields, result) in zip(reference, results) {
            try #require(fields.count == 8)
            let key = fields[0...2].joined(separator: ",")
            try #require(key == result.key, "row \(key) against \(result.key)")
            let e = result.estimate
            let heading = Double(fields[3])!, roll = Double(fields[4])!, pitch = Double(fields[5])!
            let accuracy = Double(fields[6])!, flags = Int(fields[7])!
            // Heading and roll wrap (0…360, −180…180): their difference is taken round the circle.
            let headingError = heading.isNaN ? (e.headingDegrees == nil ? 0 : .infinity)
                : e.headingDegrees.map { abs(remainder($0 - heading, 360)) } ?? .infinity
            let angleError = max(headingError, abs(remainder(e.rollDegrees - roll, 360)), abs(e.pitchDegrees - pitch))
            let accuracyError = abs(e.accuracyDegrees - accuracy) / max(abs(accuracy), 1e-300)
            worst = (max(worst.angle, angleError), max(worst.accuracy, accuracyError))
            if angleError > 1e-9 || accuracyError > 1e-9 || flags != Int(e.flags.rawValue) {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("row \(key): heading \(e.headingDegrees ?? .nan) against \(heading), roll \(e.rollDegrees) against \(roll), pitch \(e.pitchDegrees) against \(pitch), accuracy \(e.accuracyDegrees) against \(accuracy), flags \(e.flags.rawValue) against \(flags)")
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) rows differ; worst angle \(worst.angle)°, accuracy \(worst.accuracy) relative")
    }
}
