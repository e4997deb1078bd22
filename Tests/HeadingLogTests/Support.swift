import Foundation
import HeadingLog
import Linear

/// A scratch folder for one test; the caller removes it.
func scratchFolder(_ name: String = "headinglog") throws -> String {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

func removeFolder(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

/// The file's bytes as text.
func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// Lines without their "\n" (a trailing empty piece after the last "\n" is dropped).
func lines(_ path: String) -> [String] {
    var parts = contents(path).components(separatedBy: "\n")
    if parts.last == "" { parts.removeLast() }
    return parts
}

func write(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}

/// The project root (resolving the symlinks a private dev package may use).
let projectRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A plausible row at time `t` (Unix seconds) with everything filled in, values already at the
/// columns' resolution so that they survive a round trip exactly.
func sampleRow(_ rng: inout SplitMix64, time t: Double, withFix: Bool = true) -> LogRow {
    func r(_ v: Double, _ d: Double) -> Double { (v * d).rounded() / d }
    let raw = Vector3(r(rng.nextGaussian() * 30, 1000), r(rng.nextGaussian() * 30, 1000), r(-40 + rng.nextGaussian(), 1000))
    var row = LogRow(time: (t * 1000).rounded() / 1000, monotonic: r(rng.nextUnit() * 1000, 1e6))
    row.rawField = raw
    row.calibratedField = Vector3(r(raw.x - 1.5, 1000), r(raw.y + 0.25, 1000), r(raw.z, 1000))
    row.fieldStrength = r(raw.norm, 1000)
    row.roll = r(rng.nextGaussian() * 5, 1000)
    row.pitch = r(rng.nextGaussian() * 5, 1000)
    row.rawMagneticHeading = r(rng.nextUnit() * 359.999, 1000)
    row.magneticHeading = r(rng.nextUnit() * 359.999, 1000)
    row.declination = r(12.5 + rng.nextGaussian(), 1000)
    row.declinationSource = "wmm"
    row.trueHeading = r(rng.nextUnit() * 359.999, 1000)
    row.accuracy = r(1 + rng.nextUnit() * 5, 100)
    row.flags = rng.nextUnit() < 0.3 ? ["disturbed", "tiltHeld"] : []
    if rng.nextUnit() < 0.8 {
        row.acceleration = Vector3(r(rng.nextGaussian() * 0.1, 1e5), r(rng.nextGaussian() * 0.1, 1e5), r(-1 + rng.nextGaussian() * 0.05, 1e5))
        row.rotationRate = Vector3(r(rng.nextGaussian() * 20, 1e4), r(rng.nextGaussian() * 20, 1e4), r(rng.nextGaussian() * 20, 1e4))
    }
    if withFix {
        row.gnssMode = "3d"
        row.latitude = r(-33.87 + rng.nextGaussian() * 0.01, 1e8)
        row.longitude = r(151.2 + rng.nextGaussian() * 0.01, 1e8)
        row.altitude = r(20 + rng.nextGaussian(), 1000)
        row.speed = r(rng.nextUnit() * 3, 1000)
        row.course = r(rng.nextUnit() * 359.999, 1000)
        row.horizontalError = r(2 + rng.nextUnit() * 3, 1000)
        row.fixDistance = r(rng.nextUnit() * 5, 1000)
        row.fixBearing = r(rng.nextUnit() * 359.999, 1000)
    }
    return row
}

/// Writes a log of `rows` built by `make(i)` through a `LogSession` (header included).
func writeLog(_ path: String, rows: Int, _ make: (Int) -> LogRow) throws {
    let session = try LogSession(.init(path: path, overwrite: true))
    for i in 0..<rows { try session.append(make(i)) }
    try session.close()
}

/// A CSV line with the v1 field count where only the named columns are set.
func csvLine(_ values: [String: String]) -> String {
    LogSchema.columns.map { values[$0.name] ?? "" }.joined(separator: ",")
}

/// The time text for Unix seconds.
func isoTime(_ t: Double) -> String { TimeText.string(milliseconds: Int64((t * 1000).rounded())) }
