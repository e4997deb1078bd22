import JSON
import Linear

/// Typed access to an object's fields with error paths such as "profiles[1].matrix".
struct FieldReader {
    let value: JSONValue
    let path: String

    func has(_ key: String) -> Bool {
        guard let v = value[key] else { return false }
        return !v.isNull
    }

    func field(_ key: String) throws(ProfileDecodingError) -> JSONValue {
        guard let v = value[key], !v.isNull else { throw .missingField("\(path).\(key)") }
        return v
    }

    func child(_ key: String) throws(ProfileDecodingError) -> FieldReader {
        let v = try field(key)
        guard v.object != nil else { throw .invalidField("\(path).\(key)", reason: "expected an object") }
        return FieldReader(value: v, path: "\(path).\(key)")
    }

    func optionalChild(_ key: String) throws(ProfileDecodingError) -> FieldReader? {
        has(key) ? try child(key) : nil
    }

    func string(_ key: String) throws(ProfileDecodingError) -> String {
        guard let s = try field(key).string else { throw .invalidField("\(path).\(key)", reason: "expected a string") }
        return s
    }

    func optionalString(_ key: String) throws(ProfileDecodingError) -> String? {
        has(key) ? try string(key) : nil
    }

    func double(_ key: String) throws(ProfileDecodingError) -> Double {
        guard let d = try field(key).double, d.isFinite else {
            throw .invalidField("\(path).\(key)", reason: "expected a finite number")
        }
        return d
    }

    func double(_ key: String, default fallback: Double) throws(ProfileDecodingError) -> Double {
        has(key) ? try double(key) : fallback
    }

    func int(_ key: String) throws(ProfileDecodingError) -> Int {
        guard let i = try field(key).int else { throw .invalidField("\(path).\(key)", reason: "expected an integer") }
        return i
    }

    func optionalInt(_ key: String) throws(ProfileDecodingError) -> Int? {
        has(key) ? try int(key) : nil
    }

    func doubles(_ key: String) throws(ProfileDecodingError) -> [Double] {
        guard let items = try field(key).array else { throw .invalidField("\(path).\(key)", reason: "expected an array") }
        var out: [Double] = []
        for item in items {
            guard let d = item.double, d.isFinite else {
                throw .invalidField("\(path).\(key)", reason: "expected finite numbers")
            }
            out.append(d)
        }
        return out
    }

    func vector(_ key: String) throws(ProfileDecodingError) -> Vector3 {
        let d = try doubles(key)
        guard d.count == 3 else { throw .invalidField("\(path).\(key)", reason: "expected 3 numbers, found \(d.count)") }
        return Vector3(d[0], d[1], d[2])
    }

    func matrix(_ key: String) throws(ProfileDecodingError) -> Matrix3 {
        guard let rows = try field(key).array, rows.count == 3 else {
            throw .invalidField("\(path).\(key)", reason: "expected 3 rows of 3 numbers")
        }
        var values: [[Double]] = []
        for row in rows {
            guard let items = row.array, items.count == 3 else {
                throw .invalidField("\(path).\(key)", reason: "expected 3 rows of 3 numbers")
            }
            let numbers = items.compactMap { $0.double }.filter(\.isFinite)
            guard numbers.count == 3 else { throw .invalidField("\(path).\(key)", reason: "expected finite numbers") }
            values.append(numbers)
        }
        guard let m = Matrix3(values) else { throw .invalidField("\(path).\(key)", reason: "expected 3 rows of 3 numbers") }
        return m
    }
}
