import JSON
import Platform

/// Why a calibration profile or profile file could not be read; `message` says what to do.
///
/// ```swift
/// do { _ = try CalibrationProfileFile.decode(text) } catch { print(error.message) }
/// ```
public enum ProfileDecodingError: Error, Sendable, Equatable {
    /// The text is not JSON at all (truncated or corrupted file).
    case invalidJSON(JSONError)
    /// Valid JSON, but not a Lodestone calibration document (`found` is its "schema" value, if any).
    case notACalibrationFile(found: String?)
    /// A calibration file from a newer version of the format.
    case unsupportedSchema(String)
    /// A profile with a newer `schema_version`.
    case unsupportedProfileVersion(Int, path: String)
    /// A required field is absent.
    case missingField(String)
    /// A field has the wrong type or an unusable value.
    case invalidField(String, reason: String)

    public var message: String {
        let fix = "run the calibration again to write a fresh profile"
        switch self {
        case let .invalidJSON(error):
            return "the calibration file is not valid JSON (\(error.message)); it may be truncated or corrupted: \(fix)"
        case let .notACalibrationFile(found):
            let what = found.map { "its schema is \"\(excerpt($0, limit: 40))\"" } ?? "it has no \"schema\" field"
            return "this is not a Lodestone calibration file (\(what)): check the path, or \(fix)"
        case let .unsupportedSchema(schema):
            return "the calibration file uses schema \"\(excerpt(schema, limit: 40))\", newer than this version understands "
                + "(\(CalibrationProfileFile.schema)): update Lodestone, or \(fix)"
        case let .unsupportedProfileVersion(version, path):
            return "\(path) has schema_version \(version), newer than this version understands "
                + "(\(CalibrationProfile.currentSchemaVersion)): update Lodestone, or \(fix)"
        case let .missingField(path):
            return "the calibration profile lacks \(path): the file is incomplete; \(fix)"
        case let .invalidField(path, reason):
            return "the calibration profile's \(path) is invalid (\(reason)): \(fix)"
        }
    }
}
