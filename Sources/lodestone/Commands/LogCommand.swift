import Glibc
import HeadingLog
import Linear
import Options
import Platform
import Sensors

/// `lodestone log`: headless logging to a CSV file that survives kills and power cuts.
enum LogCommand: Command {
    static let spec = CommandSpec(
        name: "log",
        abstract: "log the heading to a CSV file, headless; the file survives kills and power cuts",
        usage: "--output FILE.csv [--rate HZ] [--duration S] [--overwrite] [--fsync-interval S]\n"
            + "       [--rotate-size MB | --rotate daily] [--simulate] [sensor options]",
        options: [
            Option("output", short: "o", value: "FILE", help: "the CSV file; rows are appended to an existing log"),
            Option("rate", value: "HZ", help: "rows per second, 0.01–1000 (default 10); a row needs a new sample"),
            Option("duration", value: "S", help: "stop after S seconds (default: until Ctrl-C or SIGTERM)"),
            Option("overwrite", help: "replace the file's contents instead of appending"),
            Option("fsync-interval", value: "S", help: "seconds between syncs to disk, 0.1–60 (default 1): what a power cut can cost"),
            Option("rotate-size", value: "MB", help: "start a new file (FILE.1.csv, FILE.2.csv, …) before one exceeds MB megabytes"),
            Option("rotate", value: "daily", help: "one file per UTC day: FILE-YYYYMMDD.csv"),
            Option("gpsd", value: "HOST:PORT", help: "gpsd for position columns and the WMM declination (default 127.0.0.1:2947)"),
            Option("no-gnss", help: "do not use gpsd (or the simulated receiver)"),
        ] + sensorOptions + [calibrationOption] + headingOptions,
        discussion: """
        The file stays one valid CSV: rows are written whole, at least every half second, and synced
        to disk every --fsync-interval seconds, so SIGKILL loses at most the last half second and a
        power cut about the last --fsync-interval. An incomplete last row left by a kill or a power
        cut is removed before the next run appends. A file with another header is never appended to (exit 65).
        Columns and units: see "Log format" in the README.
          lodestone log --simulate --output heading.csv --duration 60
          lodestone log --output /var/lib/lodestone/heading.csv --rotate daily
        Ctrl-C or SIGTERM flushes, syncs and stops (exit 0). Disk full or an I/O error: exit 74, and
        the rows already written stay valid.
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard let output = arguments.string("output"), !output.isEmpty else {
            throw UsageError.missingArgument("--output FILE.csv", command: spec.name)
        }
        let rate = try arguments.double("rate", in: 0.01...1000) ?? 10
        let duration = try arguments.double("duration", in: 0.001...1e9)
        let fsyncInterval = try arguments.double("fsync-interval", in: 0.1...60) ?? 1
        try arguments.requireAtMostOne(of: ["rotate-size", "rotate"])
        var rotation = LogRotation.none
        if let megabytes = try arguments.double("rotate-size", in: 0.01...1_000_000) {
            rotation = .size(bytes: Int(megabytes * 1_000_000))
        }
        if try arguments.choice("rotate", from: ["daily"]) != nil { rotation = .daily }

        let headingOptions = try HeadingOptions(arguments)
        if arguments.flag("no-gnss") && arguments.string("gpsd") != nil {
            throw UsageError.conflict("--gpsd and --no-gnss cannot be used together")
        }
        let signals = SignalWatcher()
        // A file-size limit must end in a write error (exit 74), not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        let live = try openLiveSession(arguments, headingOptions: headingOptions, signals: signals,
                                       distanceFilter: 0, command: "log")
        let session = try LogSession(LogSession.Options(
            path: output, overwrite: arguments.flag("overwrite"), fsyncInterval: fsyncInterval, rotation: rotation))
        for note in session.notes { StandardOutput.error("lodestone log: " + note) }
        StandardOutput.error("lodestone log: writing \(session.currentPath) at \(plain(rate)) rows/s "
                             + "(Ctrl-C or SIGTERM stops)")
        try record(live, into: session, rate: rate, duration: duration, signals: signals)
        try session.close()
        StandardOutput.error("lodestone log: \(session.rowsWritten) rows written to \(session.currentPath)")
        return .success
    }

    /// Runs every sample through the filter stage and writes a row per slot of a drift-free schedule
    /// (slot k at start + k/rate) with the newest estimate, when there is a new one, until a stop
    /// signal, the duration, or an error. The log keeps its flush and sync cadence throughout; the
    /// fault-tolerant reader retries and reconnects.
    static func record(_ live: LiveSession, into session: LogSession, rate: Double, duration: Double?,
                       signals: SignalWatcher) throws {
        let reader = live.pipeline.reader
        let start = Clock.monotonic()
        var k = 0
        var lastLogged = -Double.infinity
        var lastStatus = 0
        while true {
            let offset = Double(k) / rate
            if let duration, offset >= duration { return }
            let deadline = start + offset
            // Until the slot: feed the filter every sample (waking for signals), keep the log's cadence.
            while !signals.stopRequested {
                let wait = deadline - Clock.monotonic()
                if wait <= 0 { break }
                if let sample = reader.next(timeout: min(wait, 0.25)) { live.pipeline.process(sample) }
                live.pollGNSS(now: Clock.monotonic())
                try session.tick()
            }
            if signals.stopRequested { return }
            // Whatever is ready now; else wait up to half a slot (at most 0.25 s) for the next sample.
            if live.pipeline.pump() == nil, live.pipeline.lastSample.map({ $0.monotonic <= lastLogged }) ?? true,
               let sample = reader.next(timeout: min(0.5 / rate, 0.25)) {
                live.pipeline.process(sample)
            }
            let now = Clock.monotonic()
            live.pollGNSS(now: now)
            if let sample = live.pipeline.lastSample, sample.monotonic > lastLogged, let row = live.logRow(now: now) {
                try session.append(row)
                lastLogged = sample.monotonic
            } else {
                try session.tick()
            }
            if statusKind(reader.status) != lastStatus {   // say it once per change, for the journal
                lastStatus = statusKind(reader.status)
                StandardOutput.error("lodestone log: " + (reader.statusMessage ?? "sensor reading again"))
            }
            k += 1
            // After a stall (suspend, a hung bus) skip the missed slots instead of catching up in a burst.
            let due = Int(((Clock.monotonic() - start) * rate).rounded(.down))
            if due > k + max(1, Int(rate)) { k = due }
        }
    }

    private static func statusKind(_ status: ReaderStatus) -> Int {
        switch status {
        case .ok: return 0
        case .retrying: return 1
        case .notResponding: return 2
        case .noData: return 3
        case .stuck: return 4
        }
    }
}
