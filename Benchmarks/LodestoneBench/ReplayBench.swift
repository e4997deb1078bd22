import Glibc
import Heading
import Platform
import Session

// `heading --from-file` as a user runs it: a BROAD trial (the first in LODESTONE_BROAD_DIR, else a
// simulated vehicle) through `HeadingReplay` with its CSV written to a file, in process.
// `heading.replay`: rows per second (CPU time of the whole run: reading, the filter, formatting,
// writing), best of five. Goal: ≥ 500 000 rows/s.

private final class Quiet: TextOutput {
    func write(_ text: String) -> Bool { true }
}

/// Appends every text to a file, one `write` loop per text (as standard output redirected to a file).
private final class FileOutput: TextOutput {
    let fd: Int32
    init?(path: String) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { return nil }
    }
    deinit { close(fd) }
    func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }
}

func runReplayBenchmarks() {
    guard report.shouldRun("heading.replay") else { return }
    let folder = Environment.value("LODESTONE_BROAD_DIR") ?? ".build/bench/broad"
    let names = (Files.list(folder) ?? []).sorted()
    var input = names.first { $0.hasPrefix("broad_") && $0.hasSuffix("_raw.csv") }.map { folder + "/" + $0 }
    var scratch: String?
    if input == nil {
        let dir = "/tmp/lodestone-bench-replay-\(getpid())"
        mkdir(dir, 0o755)
        scratch = dir
        input = exportSimulatedTrials(to: dir) ? dir + "/sim_car_raw.csv" : nil
    }
    defer {
        if let scratch {
            for name in Files.list(scratch) ?? [] { unlink(scratch + "/" + name) }
            rmdir(scratch)
        }
    }
    guard let input else { print("heading.replay: no trial to replay; skipped"); return }
    let outputPath = "/tmp/lodestone-bench-replay-\(getpid()).csv"
    defer { unlink(outputPath) }
    var best = Double.infinity
    var rows = 0
    for _ in 0..<5 {
        unlink(outputPath)
        guard let file = FileOutput(path: outputPath) else { print("heading.replay: cannot write \(outputPath)"); return }
        let runtime = Runtime(time: SystemTime(), events: SleepingEventSource(), output: file, diagnostics: Quiet(),
                              environment: EnvironmentValues([:]), command: "heading")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let t0 = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        do {
            _ = try HeadingReplay(path: input, year: 2026).run(runtime: runtime)
        } catch {
            print("heading.replay: \(error)")
            return
        }
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let t1 = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        best = min(best, t1 - t0)
        // The output's data lines (less the header).
        rows = max(0, ((try? Files.readText(outputPath)) ?? "").utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } - 1)
    }
    let rate = Double(rows) / best
    report.add(BenchResult(name: "heading.replay", nsPerOp: best * 1e9 / Double(max(rows, 1)), iterations: rows, extra: [
        ("trial", "\"\(input.split(separator: "/").last ?? "")\""), ("rows", "\(rows)"), ("rows_per_s", fixed(rate, 0)),
        ("goal_rows_per_s", "500000"), ("ok", rows > 0 && rate >= 500_000 ? "true" : "false"),
    ]))
}
