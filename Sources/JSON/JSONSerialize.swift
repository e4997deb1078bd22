import Platform

extension JSONValue {
    /// The JSON text for this value. Compact by default; `pretty` uses two-space indentation and
    /// one member per line. Non-finite numbers are written as `null`; integral numbers without
    /// a fraction; others in the shortest form that reads back to the same `Double`.
    ///
    /// ```swift
    /// JSONValue.array([1, 2.5, "a\n"]).serialized()   // [1,2.5,"a\n"]
    /// ```
    public func serialized(pretty: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        JSONWriter(pretty: pretty).write(self, into: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends this value's compact JSON text (as `serialized()`) to `out`.
    public func append(to out: inout [UInt8]) {
        JSONWriter(pretty: false).write(self, into: &out, indent: 0)
    }

    /// Appends a string's JSON text (quoted and escaped, as `serialized` writes it) to `out`.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        JSONWriter(pretty: false).writeString(s, into: &out)
    }

    /// The JSON text for a number (see `serialized`).
    public static func numberText(_ d: Double) -> String {
        var out: [UInt8] = []
        appendNumber(d, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a number's JSON text: `null` when not finite, "-0" for −0 (the value itself, as it
    /// was given), otherwise the shortest decimal that reads back as `d`, never in exponent notation
    /// (Platform's one formatter, `plain`). For writers that build a message straight into bytes.
    public static func appendNumber(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else { out.append(contentsOf: "null".utf8); return }
        if d == 0, d.sign == .minus { out.append(contentsOf: "-0".utf8); return }
        appendPlain(d, to: &out)
    }
}

/// Appends JSON text to a byte buffer.
struct JSONWriter {
    let pretty: Bool

    func write(_ value: JSONValue, into out: inout [UInt8], indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case let .number(d): JSONValue.appendNumber(d, to: &out)
        case let .string(s): writeString(s, into: &out)
        case let .array(items):
            guard !items.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, indent: indent + 1)
                write(item, into: &out, indent: indent + 1)
            }
            newline(into: &out, indent: indent)
            out.append(UInt8(ascii: "]"))
        case let .object(pairs):
            guard !pairs.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (k, pair) in pairs.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, indent: indent + 1)
                writeString(pair.0, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(pair.1, into: &out, indent: indent + 1)
            }
            newline(into: &out, indent: indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    func newline(into out: inout [UInt8], indent: Int) {
        guard pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// A string quoted and escaped. The bytes that need no escape go out a run at a time (one copy
    /// each, not a byte at a time): a key or a value is usually one run.
    func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var run = 0
            for i in bytes.indices {
                let b = bytes[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 0x7F else { continue }
                if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
                run = i + 1
                Self.appendEscape(b, into: &out)
            }
            if run < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape for a byte that cannot stand in a JSON string as it is: `\"`, `\\`, the short
    /// forms of the common controls, `\u00XX` for the other controls and DEL.
    private static func appendEscape(_ b: UInt8, into out: inout [UInt8]) {
        out.append(0x5C)
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(b)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            // Lower-case hex digits: 0x7F is \u007f.
            func hex(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10 }
            out.append(contentsOf: "u00".utf8)
            out.append(hex(b >> 4))
            out.append(hex(b & 0xF))
        }
    }
}
