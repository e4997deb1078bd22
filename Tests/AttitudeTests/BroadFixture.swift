import Attitude
import Foundation
import Linear

/// One BROAD excerpt from Tests/Fixtures/broad (see SOURCES.md there).
struct BroadExcerpt {
    struct Row {
        var time: Double
        var magnetometer: Vector3
        var accelerometer: Vector3
        var gyro: Vector3
        var heading: Double
        var pitch: Double
        var moving: Bool
    }
    var rows: [Row]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/broad")

    static func load(trial: String) throws -> BroadExcerpt {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        guard let name = names.first(where: { $0.hasPrefix("broad_\(trial)_") && $0.hasSuffix("_excerpt.csv") }) else {
            throw CocoaError(.fileNoSuchFile)
        }
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        var rows: [Row] = []
        for line in text.split(separator: "\n").dropFirst() {
            let v = line.split(separator: ",").map { Double($0) ?? .nan }
            guard v.count == 13 else { continue }
            rows.append(Row(time: v[0], magnetometer: Vector3(v[1], v[2], v[3]), accelerometer: Vector3(v[4], v[5], v[6]),
                            gyro: Vector3(v[7], v[8], v[9]), heading: v[10], pitch: v[11], moving: v[12] == 1))
        }
        return BroadExcerpt(rows: rows)
    }

    /// Heading errors (degrees) and whether `accuracyDegrees` covered each, over the metric rows
    /// (moving, |pitch| ≤ 60°, finite truth).
    func run(settings: AttitudeSettings = AttitudeSettings(), gyro: Bool = true)
        -> (errors: [Double], covered: [Bool], accuracies: [Double]) {
        var filter = AttitudeFilter(settings: settings)
        var errors: [Double] = [], covered: [Bool] = [], accuracies: [Double] = []
        for r in rows {
            filter.update(time: r.time, gyroscope: gyro ? r.gyro : nil, accelerometer: r.accelerometer, magnetometer: r.magnetometer)
            guard r.moving, abs(r.pitch) <= 60, r.heading.isFinite else { continue }
            let e = filter.estimate
            let error = e.headingDegrees.map { angleError($0, r.heading) } ?? 180
            errors.append(error)
            covered.append(error <= e.accuracyDegrees)
            accuracies.append(e.accuracyDegrees)
        }
        return (errors, covered, accuracies)
    }
}

func rms(_ x: [Double]) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(max(1, x.count))).squareRoot() }
