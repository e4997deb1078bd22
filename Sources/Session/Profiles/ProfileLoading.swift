import Calibration
import Platform
import Sensors

/// The identity a sensor's profile is stored under. Simulated chips get their own identity
/// ("simulated-qmc5883l", no bus), so a simulated run never uses or overwrites a real sensor's profile.
///
/// ```swift
/// let id = profileIdentity(for: source.info, simulated: source.isSimulated)
/// ```
public func profileIdentity(for info: SensorInfo, simulated: Bool) -> SensorIdentity {
    simulated ? SensorIdentity(chip: "simulated-" + info.chip.rawValue)
              : SensorIdentity(chip: info.chip.rawValue, bus: info.bus, address: Int(info.address))
}

/// Finds the calibration profile for a sensor and says which one is in use.
///
/// - With `explicitPath` (`--calibration FILE`): the file must exist and decode, else the error is
///   thrown (corrupt: exit 65; unreadable: 74). A file holding a single profile is used whatever
///   sensor it names; a file with several must hold one for this sensor (else exit 65).
/// - Without: the default file. No file or no profile for this sensor gives no profile
///   ("uncalibrated: … — run 'lodestone calibrate'"); a corrupt default file gives no profile and a
///   warning in the description, never an error.
///
/// Profiles in gauss, nT or mG are converted to µT; profiles in counts or an unknown unit cannot be
/// applied to sensor readings (an explicit one is an error, a default one a warning).
///
/// ```swift
/// let (profile, description) = try loadProfile(for: source.info, explicitPath: nil, simulated: true,
///                                              configFolder: runtime.environment.configFolder, home: nil)
/// runtime.say(description)
/// let corrected = profile?.apply(sample.field) ?? sample.field
/// ```
public func loadProfile(for info: SensorInfo, explicitPath: String?, simulated: Bool, configFolder: String?,
                        home: String?, standardInput: String = "/dev/stdin") throws -> (profile: CalibrationProfile?, description: String) {
    let identity = profileIdentity(for: info, simulated: simulated)
    let sensorName = simulated ? "the simulated \(info.chip.displayName)" : info.summary
    let store: ProfileStore
    do {
        store = try ProfileStore(path: explicitPath, configFolder: configFolder)
    } catch {
        return (nil, "uncalibrated: \(error.message)")
    }
    let shown = abbreviatingHome(store.path, home: home)
    if let explicitPath {
        // "-": the profile comes on standard input.
        guard explicitPath == "-" || Files.exists(explicitPath) else {
            throw ProfileStoreError.unreadable(path: explicitPath, "no such file; check the path given to --calibration")
        }
        let file = try store.loadAll(standardInput: standardInput)
        let chosen = file.profile(for: identity) ?? (file.profiles.count == 1 ? file.profiles[0] : nil)
        guard let chosen else {
            throw ProfileLoadingError.noProfile(path: explicitPath, sensor: identity,
                                                available: file.profiles.map(\.sensor.description))
        }
        guard let usable = chosen.unit == "uT" ? chosen : chosen.inMicrotesla() else {
            throw ProfileLoadingError.unknownUnit(path: explicitPath, unit: chosen.unit)
        }
        return (usable, "calibration: \(shown) (\(summary(of: usable, storedUnit: chosen.unit)))")
    }
    let file: CalibrationProfileFile
    do {
        file = try store.loadAll()
    } catch {
        // The store's message names the file, the reason and the fix.
        return (nil, "uncalibrated: warning: " + firstLine(error.message))
    }
    guard let found = file.profile(for: identity) else {
        let hint = simulated ? "lodestone calibrate --simulate" : "lodestone calibrate"
        return (nil, "uncalibrated: no profile for \(sensorName) in \(shown) — run '\(hint)'")
    }
    guard let usable = found.unit == "uT" ? found : found.inMicrotesla() else {
        return (nil, "uncalibrated: warning: the profile for \(sensorName) in \(shown) is in '\(sanitize(found.unit))', "
                    + "not a field unit; recalibrate with 'lodestone calibrate'")
    }
    return (usable, "calibration: \(shown) (\(summary(of: usable, storedUnit: found.unit)))")
}

/// "qmc5883l on bus 1 at 0x0d, 2026-11-29, full, residual 1.3 %".
private func summary(of profile: CalibrationProfile, storedUnit: String) -> String {
    var parts = [sanitize(profile.sensor.description)]
    let date = String(profile.created.prefix(10))
    if !date.isEmpty { parts.append(sanitize(date)) }
    parts.append(profile.model.rawValue)
    parts.append("residual " + fixed(profile.residualPercent, profile.residualPercent < 10 ? 1 : 0) + " %")
    if storedUnit != "uT" { parts.append("converted from " + sanitize(storedUnit)) }
    if let yaw = profile.yawOffsetDegrees { parts.append("heading offset " + fixed(yaw, 1) + "°") }
    return parts.joined(separator: ", ")
}

/// The path as shown to the user: the home folder as "~", control characters removed (the path may
/// come from XDG_CONFIG_HOME, HOME or an option, and must not drive the terminal).
public func abbreviatingHome(_ path: String, home: String?) -> String {
    if let home, !home.isEmpty, home != "/", path.hasPrefix(home + "/") {
        return sanitize("~" + path.dropFirst(home.count))
    }
    return sanitize(path)
}

/// The first line of a message (the rest is advice for another context).
func firstLine(_ s: String) -> String { String(s.split(separator: "\n").first ?? "") }

/// A `--calibration FILE` that cannot be applied to this sensor. Exit 65.
public enum ProfileLoadingError: UserFacingError {
    case noProfile(path: String, sensor: SensorIdentity, available: [String])
    case unknownUnit(path: String, unit: String)

    public var message: String {
        switch self {
        case .noProfile(let path, let sensor, let available):
            return "calibration file \(path) has no profile for \(sensor)"
                + (available.isEmpty ? " (it holds no profiles)" : " (it has: " + available.map(sanitize).joined(separator: "; ") + ")")
                + ": run 'lodestone calibrate' for this sensor, or name another file"
        case .unknownUnit(let path, let unit):
            return "calibration file \(path) is in '\(sanitize(unit))', which cannot be applied to readings in µT: "
                + "fit it again with 'lodestone calibrate --from-file FILE --unit uT' (or gauss) from a recording in a known unit"
        }
    }

    public var exitCode: ExitCode { .dataError }
}
