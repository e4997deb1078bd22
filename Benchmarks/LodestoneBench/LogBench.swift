import Glibc
import HeadingLog
import Linear
import Platform

/// CSV logging and analysis:
/// - `log.row`: format one full row and append it through `LogSession` with the default flush and
///   fsync cadence, to a temporary file. Goal: ≥ 10 000 rows/s sustained (≤ 100 000 ns per row).
/// - `log.analyze_1m`: analyse a 1 000 000-row log (generated once, 10 Hz with a 1 Hz GNSS walk).
///   Goal: ≤ 2 s.
func runLogBenchmarks() {
    let folder = "/tmp/lodestone-bench-\(getpid())"
    mkdir(folder, 0o755)
    defer {
        for name in Files.list(folder) ?? [] { unlink(folder + "/" + name) }
        rmdir(folder)
    }
    var rng = SplitMix64(seed: 42)
    let template = benchRow(&rng, index: 0)

    if report.shouldRun("log.row") {
        let path = folder + "/row.csv"
        do {
            let session = try LogSession(.init(path: path, overwrite: true))
            var row = template
            var i = 0
            var failed = false
            bench("log.row", iterations: 200_000, extra: [("goal_rows_per_s", "10000")]) { n in
                for _ in 0..<n {
                    i += 1
                    row.time = 1_750_000_000 + Double(i) * 0.0001
                    row.monotonic = Double(i) * 0.0001
                    row.magneticHeading = Double(i % 36_000) / 100
                    do { try session.append(row) } catch { failed = true }
                }
            }
            try session.close()
            if failed { StandardOutput.error("log.row: a write failed") }
        } catch {
            StandardOutput.error("log.row: \(error)")
        }
    }

    if report.shouldRun("log.analyze_1m") {
        let path = folder + "/1m.csv"
        let rows = 1_000_000
        do {
            let session = try LogSession(.init(path: path, overwrite: true, fsyncInterval: 10))
            var fix = (lat: -33.8688, lon: 151.2093)
            for i in 0..<rows {
                var row = benchRow(&rng, index: i)
                if i % 10 == 0 {
                    fix.lat += rng.nextGaussian() * 1e-5
                    fix.lon += rng.nextGaussian() * 1e-5
                }
                row.latitude = fix.lat
                row.longitude = fix.lon
                try session.append(row)
            }
            try session.close()
        } catch {
            StandardOutput.error("log.analyze_1m: cannot generate the log: \(error)")
            return
        }
        var size = stat()
        stat(path, &size)
        var summary: LogSummary?
        bench("log.analyze_1m", iterations: 1, extra: [("rows", "\(rows)"), ("file_mb", jsonNumber(Double(size.st_size) / 1e6, 1)),
                                                        ("goal_s", "2")]) { n in
            for _ in 0..<n { summary = try? LogAnalyzer.analyze(path: path, options: .init(plot: true)).summary }
        }
        blackHole(summary?.rows ?? 0)
        if summary?.rows != rows { StandardOutput.error("log.analyze_1m: read \(summary?.rows ?? 0) rows, expected \(rows)") }
    }
}

/// A row like the full pipeline writes: every heading column, tilt, declination, flags and a fix.
private func benchRow(_ rng: inout SplitMix64, index i: Int) -> LogRow {
    let heading = (Double(i) * 0.05).truncatingRemainder(dividingBy: 360)
    var row = LogRow(time: 1_750_000_000 + Double(i) * 0.1, monotonic: Double(i) * 0.1)
    row.rawField = Vector3(22.1 + rng.nextGaussian() * 0.2, -4.3 + rng.nextGaussian() * 0.2, -48.7)
    row.calibratedField = Vector3(20.4, -3.9, -47.1)
    row.fieldStrength = 53.2 + rng.nextGaussian() * 0.1
    row.roll = 1.25 + rng.nextGaussian() * 0.1
    row.pitch = -0.5 + rng.nextGaussian() * 0.1
    row.rawMagneticHeading = (heading + rng.nextGaussian()).truncatingRemainder(dividingBy: 360) + 360
    row.magneticHeading = heading
    row.declination = 12.71
    row.declinationSource = "wmm"
    row.trueHeading = (heading + 12.71).truncatingRemainder(dividingBy: 360)
    row.accuracy = 1.8
    row.flags = i % 100 < 3 ? ["disturbed"] : []
    row.gnssMode = "3d"
    row.altitude = 42.5
    row.speed = 1.2
    row.course = 87.5
    row.horizontalError = 2.5
    row.fixDistance = 1.2
    row.fixBearing = 87.5
    return row
}
