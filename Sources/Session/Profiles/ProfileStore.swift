import Calibration
import Glibc
import JSON
import Platform

/// Where calibration profiles live and how they are read and saved.
///
/// The default file is `$XDG_CONFIG_HOME/lodestone/calibration.json` (else
/// `~/.config/lodestone/calibration.json`); it holds one profile per sensor identity. `--calibration
/// FILE` names another file, which may also be a single-profile document (as written by
/// `lodestone calibrate --from-file … --output FILE`). Saves are atomic: a killed save leaves the old
/// file intact.
public struct ProfileStore: Sendable {
    public let path: String
    /// True when the path was given by the user (errors are then fatal rather than warnings).
    public let explicit: Bool

    /// The store at `path`, or the default file in `configFolder` (the environment's
    /// `EnvironmentValues.configFolder`).
    public init(path: String?, configFolder: String?) throws(ProfileStoreError) {
        if let path {
            self.path = path
            explicit = true
        } else if let folder = configFolder {
            self.path = folder + "/calibration.json"
            explicit = false
        } else {
            throw .noConfigFolder
        }
    }

    /// Every profile in the file (empty when the file does not exist). A path "-" is read through
    /// `standardInput` (the session's `Runtime.standardInputPath`).
    public func loadAll(standardInput: String = "/dev/stdin") throws(ProfileStoreError) -> CalibrationProfileFile {
        let text: String?
        do { text = try Files.readTextIfPresent(path, standardInput: standardInput) } catch {
            if case .notRegular = error { throw .notAFile(path: path) }
            throw .unreadable(path: path, error.message)
        }
        guard let text else { return CalibrationProfileFile() }
        do {
            // A single-profile document is accepted too, and its errors name the field.
            return try CalibrationProfileFile.decodeFileOrProfile(text)
        } catch {
            throw .corrupt(path: path, error.message)
        }
    }

    /// Why the file cannot be used, or nil when it can (or does not exist yet).
    public var problem: ProfileStoreError? {
        do { _ = try loadAll(); return nil } catch { return error }
    }

    /// Renames a corrupt file to FILE.corrupt, so the next save starts a new one.
    public func setAsideCorrupt() throws(ProfileStoreError) {
        guard rename(path, path + ".corrupt") == 0 else {
            throw .unwritable(path: path + ".corrupt", Errno.current.description)
        }
    }

    /// The profile for a sensor, or nil when there is none.
    public func load(for sensor: SensorIdentity) throws(ProfileStoreError) -> CalibrationProfile? {
        try loadAll().profile(for: sensor)
    }

    /// Adds or replaces the sensor's profile and writes the file atomically. A corrupt existing file
    /// is never overwritten silently.
    public func save(_ profile: CalibrationProfile) throws(ProfileStoreError) {
        try refuseStandardInput()
        var file = try loadAll()
        file.upsert(profile)
        do { try Files.saveCreatingFolders(path, contents: file.serialized()) } catch {
            throw .unwritable(path: path, error.message)
        }
    }
}

extension ProfileStore {
    /// True when the profile is read from standard input (`--calibration -`).
    public var isStandardInput: Bool { path == "-" }

    /// A profile read from standard input has no file to be saved back to (a learned deviation card,
    /// a refined offset): refused, rather than a file named "-" made in the current folder.
    public func refuseStandardInput() throws(ProfileStoreError) {
        guard isStandardInput else { return }
        throw .unwritable(path: "standard input", "a profile read from standard input cannot be saved back; give --calibration FILE")
    }
}

/// Problems with the profile file, each naming the file and what to do.
public enum ProfileStoreError: UserFacingError {
    case noConfigFolder
    case unreadable(path: String, String)
    case corrupt(path: String, String)
    case unwritable(path: String, String)
    /// A device, a FIFO or a folder where the file should be: refused before it is read.
    case notAFile(path: String)

    public var message: String {
        switch self {
        case .noConfigFolder:
            return "neither XDG_CONFIG_HOME nor HOME is set, so there is no default calibration file: set HOME, "
                + "or name the file (--calibration FILE; for calibrate, --output FILE)"
        case .unreadable(let path, let why): return "cannot read calibration file \(path): \(why)"
        case .corrupt(let path, let why):
            return "calibration file \(path) cannot be used: \(why)\n(the file was left as it is; move it aside or recalibrate)"
        case .notAFile(let path):
            return "\(path) is not a regular file (a device, a pipe or a folder), so it cannot be read as a calibration file: name a file" 
        case .unwritable(let path, let why):
            return "cannot save calibration file \(path): \(why)\n(the previous file, if any, is unchanged)"
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .noConfigFolder: return .usage
        case .corrupt, .notAFile: return .dataError
        case .unreadable, .unwritable: return .ioError
        }
    }
}
