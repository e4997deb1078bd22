/// A JSON value. Objects keep their keys in document order (an array of pairs).
///
/// ```swift
/// let v = try JSONValue.parse(#"{"class":"TPV","lat":51.5,"mode":3}"#)
/// v["class"]?.string      // "TPV"
/// v["lat"]?.double        // 51.5
/// let text = JSONValue.object([("ok", .bool(true))]).serialized()   // {"ok":true}
/// ```
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Structural equality. Objects are equal when they hold the same pairs in the same order;
    /// numbers compare as `Double` (so `0` equals `-0`).
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            for (p, q) in zip(x, y) where p.0 != q.0 || p.1 != q.1 { return false }
            return true
        default: return false
        }
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The number, or nil when this is not a number.
    public var double: Double? {
        if case let .number(d) = self { return d }
        return nil
    }

    /// The number as an `Int` when it is integral and in range, else nil.
    public var int: Int? {
        guard case let .number(d) = self, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    /// The string, or nil when this is not a string.
    public var string: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    /// The Boolean, or nil when this is not a Boolean.
    public var bool: Bool? {
        if case let .bool(b) = self { return b }
        return nil
    }

    /// The elements, or nil when this is not an array.
    public var array: [JSONValue]? {
        if case let .array(a) = self { return a }
        return nil
    }

    /// The key–value pairs in document order, or nil when this is not an object.
    public var object: [(String, JSONValue)]? {
        if case let .object(o) = self { return o }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value for `key` in an object (the last one when a key repeats), or nil when absent or
    /// when this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(pairs) = self else { return nil }
        for pair in pairs.reversed() where pair.0 == key { return pair.1 }
        return nil
    }

    /// The element at `index` in an array, or nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case let .array(a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keeps the order written in the literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialized form.
    public var description: String { serialized() }
}
