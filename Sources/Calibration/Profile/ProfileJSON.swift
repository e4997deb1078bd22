import JSON
import Platform
import Linear

extension CalibrationProfile {
    /// The JSON form (snake_case keys; optional parts only when present).
    ///
    /// ```swift
    /// let text = profile.jsonValue.serialized(pretty: true)
    /// let back = try CalibrationProfile(json: JSONValue.parse(text))
    /// ```
    public var jsonValue: JSONValue {
        var sensorPairs: [(String, JSONValue)] = [("chip", .string(sensor.chip))]
        if let bus = sensor.bus { sensorPairs.append(("bus", .number(Double(bus)))) }
        if let address = sensor.address { sensorPairs.append(("address", .number(Double(address)))) }
        var pairs: [(String, JSONValue)] = [
            ("schema_version", .number(Double(schemaVersion))),
            ("sensor", .object(sensorPairs)),
            ("created", .string(created)),
            ("unit", .string(unit)),
            ("model", .string(model.rawValue)),
            ("offset", Self.json(offset)),
            ("matrix", Self.json(matrix)),
            ("field_strength", .number(fieldStrength)),
            ("residual_percent", .number(residualPercent)),
            ("coverage_percent", .number(coveragePercent)),
            ("spread_before_percent", .number(spreadBeforePercent)),
            ("spread_after_percent", .number(spreadAfterPercent)),
            ("wobble_percent", .number(wobblePercent)),
            ("sample_count", .number(Double(sampleCount))),
            ("rejected_count", .number(Double(rejectedCount))),
        ]
        if let mounting { pairs.append(("mounting", Self.json(mounting))) }
        if let yawOffsetDegrees { pairs.append(("yaw_offset_degrees", .number(yawOffsetDegrees))) }
        if let accelerometer {
            pairs.append(("accelerometer", .object([("offset", Self.json(accelerometer.offset)),
                                                    ("scale", Self.json(accelerometer.scale))])))
        }
        if let deviation { pairs.append(("deviation_degrees", .array(deviation.corrections.map { .number($0) }))) }
        return .object(pairs)
    }

    /// Reads a profile from its JSON form, validating every field. `path` prefixes field names
    /// in error messages.
    public init(json: JSONValue, path: String = "profile") throws(ProfileDecodingError) {
        let r = FieldReader(value: json, path: path)
        guard json.object != nil else { throw .invalidField(path, reason: "expected an object") }
        let version = try r.int("schema_version")
        guard version >= 1 else { throw .invalidField("\(path).schema_version", reason: "must be 1 or more") }
        guard version <= Self.currentSchemaVersion else { throw .unsupportedProfileVersion(version, path: path) }
        let s = try r.child("sensor")
        let sensor = SensorIdentity(chip: try s.string("chip"), bus: try s.optionalInt("bus"),
                                    address: try s.optionalInt("address"))
        let modelName = try r.string("model")
        guard let model = CalibrationModel(rawValue: modelName) else {
            throw .invalidField("\(path).model", reason: "unknown model \"\(excerpt(modelName))\"; expected full, diagonal or offset")
        }
        let matrix = try r.matrix("matrix")
        guard matrix.determinant > 0 else { throw .invalidField("\(path).matrix", reason: "not invertible or a reflection") }
        let field = try r.double("field_strength")
        guard field > 0 else { throw .invalidField("\(path).field_strength", reason: "must be positive") }
        guard field <= Self.maximumFieldStrength else {
            throw .invalidField("\(path).field_strength", reason: "\(field) is beyond what any magnetometer reports "
                                + "(at most \(Int(Self.maximumFieldStrength)) in any unit)")
        }
        var accelerometer: AccelerometerCalibration?
        if let a = try r.optionalChild("accelerometer") {
            let cal = AccelerometerCalibration(offset: try a.vector("offset"), scale: try a.vector("scale"))
            guard cal.scale.x > 0, cal.scale.y > 0, cal.scale.z > 0 else {
                throw .invalidField("\(path).accelerometer.scale", reason: "must be positive")
            }
            guard [cal.scale.x, cal.scale.y, cal.scale.z].allSatisfy(Self.gainRange.contains) else {
                throw .invalidField("\(path).accelerometer.scale", reason: "a gain outside "
                                    + "\(Self.gainRange.lowerBound)–\(Int(Self.gainRange.upperBound))")
            }
            guard cal.offset.norm <= Self.maximumAccelerometerOffset else {
                throw .invalidField("\(path).accelerometer.offset", reason: "|offset| \(cal.offset.norm) g is beyond any "
                                    + "accelerometer's range (±\(Int(Self.maximumAccelerometerOffset)) g)")
            }
            accelerometer = cal
        }
        var mounting: Matrix3?
        if r.has("mounting") {
            let m = try r.matrix("mounting")
            guard m.determinant.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-3) else {
                throw .invalidField("\(path).mounting", reason: "not a rotation (determinant must be 1)")
            }
            mounting = m
        }
        let yaw = r.has("yaw_offset_degrees") ? try r.double("yaw_offset_degrees") : nil
        if let yaw, abs(yaw) > 360 {
            throw .invalidField("\(path).yaw_offset_degrees", reason: "\(yaw)° is not an alignment within ±360°")
        }
        let deviation = r.has("deviation_degrees") ? try r.doubles("deviation_degrees") : nil
        if let deviation, let worst = deviation.max(by: { abs($0) < abs($1) }), abs(worst) > 180 {
            throw .invalidField("\(path).deviation_degrees", reason: "a correction of \(worst)° is not within ±180°")
        }
        let offset = try r.vector("offset")
        try Self.checkFiniteOutput(offset: offset, matrix: matrix, fieldStrength: field, path: path)
        self.init(schemaVersion: version, sensor: sensor, offset: offset, matrix: matrix,
                  fieldStrength: field, residualPercent: try r.double("residual_percent", default: 0),
                  coveragePercent: try r.double("coverage_percent", default: 0),
                  spreadBeforePercent: try r.double("spread_before_percent", default: 0),
                  spreadAfterPercent: try r.double("spread_after_percent", default: 0),
                  wobblePercent: try r.double("wobble_percent", default: 0),
                  sampleCount: try r.optionalInt("sample_count") ?? 0,
                  rejectedCount: try r.optionalInt("rejected_count") ?? 0,
                  model: model, created: try r.string("created"), unit: try r.optionalString("unit") ?? "uT",
                  mounting: mounting, yawOffsetDegrees: yaw, accelerometer: accelerometer,
                  deviation: deviation.map { DeviationCard(corrections: $0) })
    }

    /// Largest accepted |offset| in field strengths: no magnetometer measures beyond ~30× the
    /// Earth's field (±16 G), so a hard-iron offset 1000× the field is not a reading's.
    static let maximumOffsetInFields = 1000.0
    /// Largest accepted field strength in any unit: a 16-bit chip's counts, or nT for ±16 G, stay below.
    static let maximumFieldStrength = 1e7
    /// Largest accepted accelerometer offset, g: beyond the widest range (±16 g) of any supported chip.
    static let maximumAccelerometerOffset = 16.0
    /// Accepted range of the matrix's gains (singular values) relative to each other and to 1:
    /// real soft iron stays within 0.2–5 after normalisation.
    static let gainRange = 1e-3...1e3

    /// Refuses a profile whose correction cannot give a finite, sensible heading: an offset
    /// beyond any sensor's range, or a matrix that scales readings by absurd factors (its squares
    /// overflow downstream).
    static func checkFiniteOutput(offset: Vector3, matrix: Matrix3, fieldStrength: Double,
                                  path: String) throws(ProfileDecodingError) {
        let limit = maximumOffsetInFields * fieldStrength
        guard offset.norm.isFinite, offset.norm <= limit else {
            throw .invalidField("\(path).offset", reason: "|offset| \(offset.norm) is more than \(Int(maximumOffsetInFields))× the "
                                + "field strength \(fieldStrength), beyond any sensor's range; headings would not be finite")
        }
        // An entry bounds the largest gain from below; checked first, as its square may overflow.
        let entries = [matrix.r0, matrix.r1, matrix.r2].flatMap { [abs($0.x), abs($0.y), abs($0.z)] }
        if let largestEntry = entries.max(), largestEntry > gainRange.upperBound {
            throw .invalidField("\(path).matrix", reason: "it scales readings by \(largestEntry) or more, outside "
                                + "\(gainRange.lowerBound)–\(Int(gainRange.upperBound)); headings would not be finite")
        }
        guard let e = (matrix.transposed * matrix).symmetricEigen(), e.values.x > 0 else {
            throw .invalidField("\(path).matrix", reason: "not invertible")
        }
        let smallest = e.values.x.squareRoot(), largest = e.values.z.squareRoot()
        guard gainRange.contains(smallest), gainRange.contains(largest) else {
            throw .invalidField("\(path).matrix", reason: "it scales readings by \(largest < 1 ? smallest : largest), outside "
                                + "\(gainRange.lowerBound)–\(Int(gainRange.upperBound)); headings would not be finite")
        }
        let probe = matrix * (offset * -1 + Vector3(fieldStrength, fieldStrength, fieldStrength))
        guard probe.isFinite, probe.squaredNorm.isFinite else {
            throw .invalidField("\(path).matrix", reason: "the corrected field is not finite")
        }
    }

    /// Decodes one profile document.
    public static func decode(_ text: String) throws(ProfileDecodingError) -> CalibrationProfile {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw .invalidJSON(error) }
        return try CalibrationProfile(json: value)
    }

    static func json(_ v: Vector3) -> JSONValue { .array([.number(v.x), .number(v.y), .number(v.z)]) }
    static func json(_ m: Matrix3) -> JSONValue { .array([json(m.r0), json(m.r1), json(m.r2)]) }
}

extension SeedComparison {
    /// The comparison as the calibration's JSON carries it (`calibrate --from-file`'s "seed"): both
    /// spreads, the model the solver fitted, which fit was kept and, when it was the algebraic one, why.
    public var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("refined_model", .string(refinedModel.rawValue)),
            ("refined_spread_percent", .number(refinedSpreadPercent)),
            ("algebraic_spread_percent", .number(algebraicSpreadPercent)),
            ("kept", .string(keptAlgebraic ? "algebraic" : "refined")),
        ]
        if let why = reasonText { pairs.append(("reason", .string(why))) }
        return .object(pairs)
    }
}
