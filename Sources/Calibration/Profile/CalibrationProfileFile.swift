import JSON

/// The calibration file: several profiles, one per sensor identity.
///
/// `{ "schema": "lodestone.calibration/1", "profiles": [ … ] }`
///
/// ```swift
/// var file = (try? CalibrationProfileFile.decode(existingText)) ?? CalibrationProfileFile()
/// file.upsert(profile)
/// let text = file.serialized()          // the Platform module writes it atomically
/// let mine = file.profile(for: SensorIdentity(chip: "qmc5883l", bus: 1, address: 0x0D))
/// ```
public struct CalibrationProfileFile: Sendable, Hashable {
    /// The schema identifier written and accepted.
    public static let schema = "lodestone.calibration/1"
    static let schemaPrefix = "lodestone.calibration/"

    public var profiles: [CalibrationProfile]

    public init(profiles: [CalibrationProfile] = []) { self.profiles = profiles }

    /// The profile for `sensor`: an exact match of chip, bus and address; else the same chip and
    /// address on another bus; else the only profile for that chip. Nil when none fits.
    public func profile(for sensor: SensorIdentity) -> CalibrationProfile? {
        if let exact = profiles.last(where: { $0.sensor == sensor }) { return exact }
        if let moved = profiles.last(where: { $0.sensor.chip == sensor.chip && $0.sensor.address == sensor.address }) {
            return moved
        }
        let sameChip = profiles.filter { $0.sensor.chip == sensor.chip }
        return sameChip.count == 1 ? sameChip[0] : nil
    }

    /// Adds `profile`, replacing any profile with the same sensor identity.
    public mutating func upsert(_ profile: CalibrationProfile) {
        profiles.removeAll { $0.sensor == profile.sensor }
        profiles.append(profile)
    }

    /// Removes the profiles for exactly `sensor`; returns whether any was removed.
    @discardableResult
    public mutating func remove(sensor: SensorIdentity) -> Bool {
        let before = profiles.count
        profiles.removeAll { $0.sensor == sensor }
        return profiles.count != before
    }

    public var jsonValue: JSONValue {
        .object([("schema", .string(Self.schema)), ("profiles", .array(profiles.map(\.jsonValue)))])
    }

    /// Pretty JSON text ending in a newline.
    public func serialized() -> String { jsonValue.serialized(pretty: true) + "\n" }

    /// Reads a calibration file; every problem is a `ProfileDecodingError`, never a crash.
    public static func decode(_ text: String) throws(ProfileDecodingError) -> CalibrationProfileFile {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw .invalidJSON(error) }
        return try decode(value)
    }

    /// Reads a calibration file, or a single profile document (as `calibrate --from-file` writes),
    /// with the error of whichever it is: a broken single profile says which field is wrong rather
    /// than "not a calibration file".
    ///
    /// ```swift
    /// let file = try CalibrationProfileFile.decodeFileOrProfile(text)
    /// ```
    public static func decodeFileOrProfile(_ text: String) throws(ProfileDecodingError) -> CalibrationProfileFile {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw .invalidJSON(error) }
        if value.object != nil, value["schema"] == nil,
           ["schema_version", "offset", "matrix", "field_strength"].contains(where: { value[$0] != nil }) {
            return CalibrationProfileFile(profiles: [try CalibrationProfile(json: value)])
        }
        return try decode(value)
    }

    /// Reads a calibration file from raw bytes.
    public static func decode(_ bytes: [UInt8]) throws(ProfileDecodingError) -> CalibrationProfileFile {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw .invalidJSON(error) }
        return try decode(value)
    }

    /// Reads a calibration file from parsed JSON.
    public static func decode(_ value: JSONValue) throws(ProfileDecodingError) -> CalibrationProfileFile {
        guard value.object != nil else { throw .notACalibrationFile(found: nil) }
        guard let schemaValue = value["schema"] else { throw .notACalibrationFile(found: nil) }
        guard let schema = schemaValue.string else { throw .notACalibrationFile(found: schemaValue.serialized()) }
        guard schema.hasPrefix(schemaPrefix) else { throw .notACalibrationFile(found: schema) }
        guard schema == Self.schema else {
            // A higher version number is a newer format; anything else is not ours.
            let version = Int(schema.dropFirst(schemaPrefix.count)) ?? 0
            throw version > 1 ? .unsupportedSchema(schema) : .notACalibrationFile(found: schema)
        }
        guard let list = value["profiles"] else { throw .missingField("profiles") }
        guard let items = list.array else { throw .invalidField("profiles", reason: "expected an array") }
        var profiles: [CalibrationProfile] = []
        for (i, item) in items.enumerated() {
            profiles.append(try CalibrationProfile(json: item, path: "profiles[\(i)]"))
        }
        return CalibrationProfileFile(profiles: profiles)
    }
}
