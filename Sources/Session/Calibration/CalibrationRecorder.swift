import Glibc
import Linear
import Platform
import Sensors

/// `lodestone calibrate --record raw.csv [--duration S]`: writes raw magnetometer samples as CSV,
/// `t,x,y,z` (+ `ax,ay,az` when an accelerometer is paired): t in seconds since the start on the
/// sensor's monotonic clock, x/y/z in µT in body axes before any calibration, a/g in g. Each row
/// is written whole with one `write` to a file opened for appending, so a reader (or a crash)
/// never sees half a row; the file is synced every second and at the end. SIGINT/SIGTERM stop it
/// cleanly. An existing file is never overwritten.
///
/// ```swift
/// try recordRawSamples(RecordRequest(sensors: SensorSelection(simulate: true), path: "raw.csv", duration: 60),
///                      runtime: runtime)
/// ```
public struct RecordRequest: Sendable {
    public var sensors: SensorSelection
    /// The new CSV file (never overwritten).
    public var path: String
    /// Seconds to record; nil: until a stop signal.
    public var duration: Double?
    /// With the simulator: sensor seconds per real second.
    public var simulationSpeed: Double

    public init(sensors: SensorSelection, path: String, duration: Double? = nil, simulationSpeed: Double = 1) {
        self.sensors = sensors
        self.path = path
        self.duration = duration
        self.simulationSpeed = simulationSpeed
    }
}

/// Records raw samples (see `RecordRequest`) and says how many on stderr. Exit 69 when none came.
public func recordRawSamples(_ request: RecordRequest, runtime: Runtime) throws -> ExitCode {
    let inbox = ControlInbox(runtime.events)
    let sensor = try CalibrationSensor.open(request.sensors, speed: request.simulationSpeed, time: runtime.time)
    let count = try recordCalibrationSamples(sensor: sensor, path: request.path, duration: request.duration, inbox: inbox,
                                             runtime: runtime)
    runtime.say("recorded \(count) samples from the \(sensor.source.info.chip.displayName)"
                + (request.sensors.simulate ? " (simulated)" : "") + " to \(sanitize(request.path))")
    guard count > 0 else { throw RecordError.noSamples(request.path) }
    return .success
}

func recordCalibrationSamples(sensor: CalibrationSensor, path: String, duration: Double?,
                              inbox: ControlInbox, runtime: Runtime) throws -> Int {
    let withAcceleration = sensor.source.accelerometer != nil
    // A new file only (O_EXCL, never through a link): an existing recording is not overwritten.
    let fd: Int32
    do { fd = try Files.openForAppend(path, mode: .createNew) } catch {
        if case .open(_, let e) = error, e == Errno(EEXIST) { throw RecordError.exists(path) }
        throw error
    }
    defer { close(fd) }
    let header = Array(("t,x,y,z" + (withAcceleration ? ",ax,ay,az" : "") + "\n").utf8)
    try Files.writeAll(fd, header, path: path)
    // Bytes of whole rows on disk: a row cut by a full disk or a size limit is taken back to here.
    var whole = off_t(header.count)

    let reader = sensor.makeReader(inbox: inbox)
    let start = sensor.now()
    var lastSync = sensor.time.monotonic()
    var lastProgress = lastSync
    var count = 0
    let showProgress = runtime.diagnosticsIsTerminal
    while !inbox.stopRequested {
        if let duration, sensor.now() - start >= duration { break }
        guard let sample = reader.next(timeout: 0.1 * sensor.speed) else { continue }
        var row = fixed(sample.monotonic - start, 4) + "," + csv(sample.field, 4)
        if withAcceleration {
            // A missing accelerometer reading leaves the columns empty rather than inventing one.
            row += "," + (sample.acceleration.map { csv($0, 5) } ?? ",,")
        }
        let bytes = Array((row + "\n").utf8)
        do { try Files.writeAll(fd, bytes, path: path) } catch {
            _ = ftruncate(fd, whole)
            throw RecordError.writeFailed(error, samples: count, path: path)
        }
        whole += off_t(bytes.count)
        count += 1
        let now = sensor.time.monotonic()
        if now - lastSync >= 1 { fsync(fd); lastSync = now }
        if showProgress, now - lastProgress >= 0.5 {
            lastProgress = now
            runtime.diagnostics.write("\rrecording to \(sanitize(path)): \(count) samples, " + fixed(sample.monotonic - start, 1)
                                      + " s (Ctrl-C stops)\u{1B}[K")
        }
    }
    if showProgress { runtime.diagnostics.write("\r\u{1B}[K") }
    // The last rows on disk, or a failure to say (a full or vanished disk is exit 74, never a silent 0).
    guard fsync(fd) == 0 || errno == EINVAL else { throw FileError.sync(path: path, .current) }
    return count
}

private func csv(_ v: Vector3, _ decimals: Int) -> String {
    fixed(v.x, decimals) + "," + fixed(v.y, decimals) + "," + fixed(v.z, decimals)
}

/// Why a recording could not be made.
public enum RecordError: UserFacingError {
    case exists(String)
    case noSamples(String)
    /// A row that could not be written (a full disk, a size limit); the file was cut back to the
    /// `samples` whole rows before it.
    case writeFailed(FileError, samples: Int, path: String)

    public var message: String {
        switch self {
        case .exists(let path):
            return "\(path) already exists: choose another file name or remove it first (recordings are never overwritten)"
        case .noSamples(let path):
            return "no samples came from the sensor, so \(path) holds only the header: check the wiring, "
                + "or try 'lodestone watch' to see what the sensor reports"
        case .writeFailed(let error, let samples, let path):
            return error.message + "\nthe \(samples) samples recorded before it are intact in \(path) (whole rows only)"
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .exists, .writeFailed: return .ioError
        case .noSamples: return .unavailable
        }
    }
}
