import Calibration
import Heading
import JSON
import Linear
import Outputs
import Platform

/// `lodestone heading --from-file`: a recorded raw file through the same filter stage `watch` runs.
public struct HeadingReplay: Sendable {
    /// The recording: t (s), x,y,z (or mx,my,mz), optional ax,ay,az (g), body axes.
    public var path: String
    /// A calibration profile document or file.
    public var calibrationPath: String?
    /// Which profile, when the file holds several (its chip name).
    public var sensor: String?
    /// The decimal year the recording started (for the WMM); nil: now.
    public var year: Double?
    /// The unit of x,y,z: uT, gauss, nT or mG.
    public var unit: String
    public var json: Bool
    public var settings: HeadingSettings
    /// The field error left in a recording that was calibrated before it was written (µT), for the
    /// accuracy; nil: the profile's own residual, or an uncalibrated board's
    /// (`uncalibratedResidualMicrotesla`, tens of degrees) without a profile.
    public var residualMicrotesla: Double?

    public init(path: String, calibrationPath: String? = nil, sensor: String? = nil, year: Double? = nil,
                unit: String = "uT", json: Bool = false, settings: HeadingSettings = HeadingSettings(),
                residualMicrotesla: Double? = nil) {
        self.residualMicrotesla = residualMicrotesla
        self.path = path
        self.calibrationPath = calibrationPath
        self.sensor = sensor
        self.year = year
        self.unit = unit
        self.json = json
        self.settings = settings
    }

    /// Reads the recording and writes one line per estimate (CSV with a header, or JSON lines).
    ///
    /// ```swift
    /// try HeadingReplay(path: "raw.csv", settings: HeadingSettings(declinationSource: .manual(degrees: 12.8)))
    ///     .run(runtime: runtime)
    /// ```
    public func run(runtime: Runtime) throws -> ExitCode {
        let json = self.json, path = self.path
        guard let scale = CalibrationProfile.microteslaPerUnit(unit) else {
            throw InvalidRequest("--unit \(sanitize(unit)) is not a field unit: use uT, gauss, nT or mG")
        }
        if settings.refine {
            guard case .location = settings.declinationSource else {
                throw InvalidRequest("--refine needs a reference field, and a replay has no GNSS fix: give --location LAT,LON "
                                     + "(the WMM's field strength and dip there are the reference)")
            }
        }
        let startWall = year.map(Self.unixTime(ofDecimalYear:)) ?? runtime.time.wall()
        let loaded = try calibrationPath.map { try Self.loadOfflineProfile($0, sensor: sensor) }
        // A profile in a known unit is applied in µT; one in the recording's own unit ("input",
        // counts) is applied before the unit conversion.
        let profile = loaded.flatMap { $0.inMicrotesla() }
        let inputProfile = profile == nil ? loaded : nil
        let recording = try Recording.read(path: path, requireTime: true, standardInput: runtime.standardInputPath)
        guard let times = recording.times, let timeTexts = recording.timeTexts else {
            throw RecordingError.missingTime(path: path, line: 1)
        }
        for bad in recording.badRows.prefix(10) {
            runtime.say("\(path) line \(bad.line): \(bad.reason); skipped")
        }
        if recording.badRowCount > 10 {
            runtime.say("… and \(recording.badRowCount - 10) more bad rows skipped")
        }
        var settings = self.settings
        settings.deviation = .off
        // As `watch` does: the profile's custom mounting (relative to the default orientation a
        // recording is made with) and its heading-alignment yaw are applied.
        let pipeline = HeadingPipeline(PipelineSetup(
            profile: profile, settings: settings,
            residualMicrotesla: residualMicrotesla ?? (profile == nil ? loaded.map { $0.residualField(scale: scale) } : nil)))
        let out = runtime.output
        let refining = pipeline.refiner != nil
        if !json { guard out.write(Self.header + (refining ? Self.refineHeader : "") + "\n") else { return .success } }
        var narrator = RefinementNarrator()
        var skipped = 0
        // Lines are made straight into one byte buffer and written in chunks of about 64 KiB.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.chunkBytes + 1024)
        let magnetics = recording.magnetic, accelerations = recording.acceleration, rates = recording.rotationRate
        for i in magnetics.indices {
            guard let t = times[i] else { skipped += 1; continue }
            let input = magnetics[i]
            // A profile in the recording's own unit is applied before the conversion to µT; its
            // accelerometer calibration likewise, the pipeline applies a µT profile's own.
            let field = inputProfile.map { $0.apply(input) * scale } ?? input * scale
            let acceleration = accelerations?[i].map { a in inputProfile?.accelerometer?.apply(a) ?? a }
            let rotationRate = rates?[i]
            guard let e = pipeline.process(field: field, acceleration: acceleration, rotationRate: rotationRate,
                                           monotonic: t, wall: startWall + t)
            else { skipped += 1; continue }
            let refinement = refining ? pipeline.refinementReport : nil
            if let said = narrator.update(refinement, monotonic: t) { runtime.say("t=\(timeTexts[i]) s: " + said) }
            if json {
                buffer.append(contentsOf: Self.jsonLine(t, e, refinement: refinement).utf8)
                buffer.append(10)
            } else {
                Self.appendCSVLine(timeTexts[i], e, to: &buffer)
                if let refinement {
                    buffer.removeLast()
                    buffer.append(contentsOf: Self.refineColumns(refinement).utf8)
                    buffer.append(10)
                }
            }
            if buffer.count >= Self.chunkBytes {
                guard out.write(String(decoding: buffer, as: UTF8.self)) else { return .success }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { guard out.write(String(decoding: buffer, as: UTF8.self)) else { return .success } }
        if skipped > 0 { runtime.say("\(skipped) rows without a usable time or value were skipped") }
        if let report = pipeline.refinementReport {
            runtime.say(report.line)
            if let calibrationPath, pipeline.profile != nil {
                try pipeline.saveRefinedProfile(to: try ProfileStore(path: calibrationPath, configFolder: nil), runtime: runtime)
            } else {
                runtime.say("refine: nothing saved (" + (calibrationPath == nil ? "no --calibration profile" :
                    "the profile is in the recording's own unit") + ")")
            }
        }
        // No estimate at all is no result: the rows were read but none could be used.
        // The same rule as for the rows the reader skipped, whatever made a row unusable.
        let unusable = recording.badRowCount + skipped
        if BadRowRule.rejects(bad: unusable, rows: recording.rowCount) {
            throw HeadingReplayError.tooFewUsable(path: path, unusable: unusable, rows: recording.rowCount)
        }
        return .success
    }

    /// The output columns. The last five (rate of turn and the attitude quaternion, body → NED,
    /// magnetic north) are filled when the recording has gyroscope columns (gx,gy,gz in °/s).
    /// The first, `monotonic_s`, is the input's time (its `t` or `monotonic_s` column) as written there:
    /// seconds on the recording's own clock, the CSV log's name for it. The names are the JSON's
    /// (`ReportJSON.replayKeys`), without the roll and pitch accuracy and `refine` (its own columns).
    public static let header = ReportJSON.replayKeys
        .filter { !["roll_accuracy_deg", "pitch_accuracy_deg", "refine"].contains($0) }.joined(separator: ",")

    /// The output is written in chunks of about this many bytes.
    static let chunkBytes = 1 << 16

    /// Appends one CSV line with its newline: the numbers through the one formatter, straight into `out`.
    static func appendCSVLine(_ t: String, _ e: HeadingEstimate, to out: inout [UInt8]) {
        func v(_ x: Double?, _ d: Int = 4) {
            out.append(44)
            if let x { appendPlain(x, decimals: d, to: &out) }
        }
        let q = e.attitude
        out.append(contentsOf: t.utf8)
        v(e.magneticHeading)
        v(e.trueHeading)
        v(e.isAccuracyAvailable ? e.accuracy : nil, 3)
        v(e.rawMagneticHeading)
        v(e.declination)
        out.append(44)
        out.append(contentsOf: e.declinationSource.label.utf8)
        v(e.fieldStrength, 3)
        v(e.roll, 3)
        v(e.pitch, 3)
        out.append(44)
        e.flags.appendNames(separator: UInt8(ascii: "|"), to: &out)
        v(q == nil ? nil : e.turnRate, 3)
        v(q?.w, 6)
        v(q?.x, 6)
        v(q?.y, 6)
        v(q?.z, 6)
        out.append(10)
    }

    /// The columns `--refine` adds: the refinement's state, the offset's change from the profile (µT,
    /// the profile's axes) and its horizontal 1σ (µT, empty until converged).
    public static let refineHeader = ",refine_state,refine_change_x_uT,refine_change_y_uT,refine_change_z_uT,refine_sigma_uT"

    static func refineColumns(_ r: RefinementReport) -> String {
        "," + [r.state.rawValue, plain(r.profileChange.x, decimals: 3), plain(r.profileChange.y, decimals: 3),
               plain(r.profileChange.z, decimals: 3), r.horizontalUncertainty.map { plain($0, decimals: 3) } ?? ""]
            .joined(separator: ",")
    }

    static func jsonLine(_ t: Double, _ e: HeadingEstimate, refinement: RefinementReport? = nil) -> String {
        ReportJSON.replay(ReplayRecord(e, monotonic: t, refinement: refinement)).serialized()
    }

    /// The profile from a file: a single profile document, the only profile in a calibration file,
    /// or the one for `--sensor`.
    static func loadOfflineProfile(_ path: String, sensor: String?) throws -> CalibrationProfile {
        let file = try ProfileStore(path: path, configFolder: nil).loadAll()
        let candidates = sensor.map { name in file.profiles.filter { $0.sensor.chip == name } } ?? file.profiles
        guard candidates.count == 1, let profile = candidates.first else {
            let names = file.profiles.map(\.sensor.description).joined(separator: "; ")
            throw ProfileStoreError.corrupt(path: path, candidates.isEmpty
                ? "it holds no profile\(sensor.map { " for \($0)" } ?? "") (it has: \(names.isEmpty ? "none" : names))"
                : "it holds several profiles (\(names)); choose one with --sensor NAME")
        }
        return profile
    }

    /// Unix seconds at the start of a decimal year's fraction.
    public static func unixTime(ofDecimalYear y: Double) -> Double {
        let year = Int(y.rounded(.down))
        let start = Double(ISO8601.daysFromCivil(year, 1, 1)) * 86400
        let end = Double(ISO8601.daysFromCivil(year + 1, 1, 1)) * 86400
        return start + (y - Double(year)) * (end - start)
    }
}

/// A recording with too few rows that give a heading (`BadRowRule`). Exit 65.
enum HeadingReplayError: UserFacingError, Equatable {
    case tooFewUsable(path: String, unusable: Int, rows: Int)

    var message: String {
        switch self {
        case .tooFewUsable(let path, let unusable, let rows):
            return "\(path): \(unusable) of \(rows) rows gave no heading (more than \(BadRowRule.maximumPercent)): "
                + "check the recording's columns, units and times"
        }
    }

    var exitCode: ExitCode { .dataError }
}
