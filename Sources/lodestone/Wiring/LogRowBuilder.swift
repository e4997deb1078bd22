import HeadingLog
import Linear
import Sensors

/// Builds the log row for one magnetometer sample: the single place where the pipeline's output is
/// mapped onto the CSV schema (see README "Log format").
///
/// For now only what the raw field gives is filled in: the raw field, |B|, and the level magnetic
/// heading atan2(−y, x), which also stands in for the smoothed magnetic heading. Calibrated field,
/// tilt, declination, true heading, accuracy, flags and GNSS stay empty until the heading filter and
/// the GNSS fix are wired in here.
///
/// ```swift
/// if let sample = reader.next(timeout: 0.1) { try session.append(makeLogRow(sample: sample)) }
/// ```
func makeLogRow(sample: MagnetometerSample) -> LogRow {
    let field = sample.field
    let heading = field.isFinite && (field.x != 0 || field.y != 0) ? magneticHeading(of: field) : nil
    return LogRow(time: sample.wall, monotonic: sample.monotonic, rawField: field, fieldStrength: field.norm,
                  rawMagneticHeading: heading, magneticHeading: heading)
}
