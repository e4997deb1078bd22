import Calibration
import Options
import Platform
import Session

/// `lodestone heading --from-file`: a recorded raw file through the same filter stage as `watch`,
/// so old recordings can be re-processed with a new calibration.
enum HeadingCommand: Command {
    static let fromFile = Option("from-file", value: "FILE", help: "the recording (- for standard input): header with t (s), x,y,z (or mx,my,mz), optional ax,ay,az (g) and gx,gy,gz (°/s: the heading is then gyro-aided), body axes")
    static let calibration = Option("calibration", value: "PROFILE", help: "calibration profile to apply (a profile document or a calibration file)")
    static let sensor = Option("sensor", value: "NAME", help: "which profile to use when the calibration file holds several (its chip name)")
    static let year = Option("year", value: "Y", range: 1900...2100.0, absent: "now",
                             help: "decimal year the recording started, for the WMM declination")
    static let unit = Option("unit", value: "UNIT", choices: FieldUnit.self, default: .uT, help: "unit of x,y,z")
    static let residual = Option("residual", value: "UT", range: 0...1000.0,
        absent: "the profile's residual with --calibration, else \(plain(uncalibratedResidualMicrotesla)) µT",
        help: "the recording is already calibrated, to within UT µT: "
        + "the accuracy counts that instead of an uncalibrated board's error")

    /// The words of `--unit`: the field units a recording may be in.
    enum FieldUnit: String, CaseIterable { case uT, gauss, nT, mG }
    enum Format: String, CaseIterable { case csv, json }
    static let format = Option("format", value: "FORMAT", choices: Format.self, default: .csv, help: "csv or json (one object per line)")

    static let spec = CommandSpec(
        name: "heading",
        abstract: "run a recorded raw file (t,x,y,z[,ax,ay,az][,gx,gy,gz]) or a log through the filter stage",
        options: [fromFile, calibration, sensor, year, unit, residual, format] + HeadingOptions.replayOptions,
        usageGroups: [.required(fromFile), HeadingOptions.declinationSources],
        discussion: """
        Output columns: monotonic_s (the input's t, or a log's monotonic_s, as written there), heading_mag_deg, heading_true_deg, accuracy_deg,
        heading_mag_raw_deg, declination_deg, declination_source, field_uT, roll_deg, pitch_deg, flags,
        and, with gyroscope columns (gx,gy,gz in °/s, the heading then gyro-aided), rate_of_turn_dps and
        the attitude quaternion qw,qx,qy,qz (body → NED, magnetic north).
        A Lodestone CSV log is read too (its raw_x_uT,raw_y_uT,raw_z_uT and monotonic_s), so a logged
        trip can be processed again with another calibration.
        Without --calibration the accuracy assumes an uncalibrated board (20 µT of hard iron: tens of
        degrees); a recording calibrated before it was written says how well with --residual, e.g.
        --residual 0.5 for a good calibration.
        True heading needs --location or --declination.
        --refine refines the profile's hard-iron offset from the recording's turns against the WMM's
        field at --location (required: a recording has no fix; without it, exit 64), and its soft iron
        when the recording's motion pins it down by the field's strength alone; it adds the columns
        refine_state, refine_change_x_uT, refine_change_y_uT, refine_change_z_uT and refine_sigma_uT (a "refine"
        object in JSON), says its progress on stderr, and saves the refined offset to the --calibration
        file when it converged (the file as it was is kept as FILE.previous). Example:
          lodestone heading --from-file raw.csv --calibration profile.json --location -33.87,151.21 --year 2026.5
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        guard let path = arguments.string(fromFile) else {
            throw UsageError.missingArgument("--from-file FILE", command: spec.name)
        }
        let json = try arguments.chosen(format, as: Format.self) == .json
        let unitName = try arguments.chosen(unit, as: FieldUnit.self).rawValue
        let replay = HeadingReplay(path: path, calibrationPath: arguments.string(calibration), sensor: arguments.string(sensor),
                                   year: try arguments.number(year), unit: unitName, json: json,
                                   settings: try HeadingOptions(arguments).settings,
                                   residualMicrotesla: try arguments.number(residual))
        return try replay.run(runtime: context.runtime(spec.name, signals: false))
    }
}
