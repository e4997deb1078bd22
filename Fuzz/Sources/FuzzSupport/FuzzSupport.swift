/// Helpers shared by the fuzz targets.

/// Ends the run when `condition` is false, naming what failed: libFuzzer keeps the input as a finding.
public func require(_ condition: @autoclosure () -> Bool, _ what: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz check failed: \(what())") }
}

/// Reads typed values from the fuzzer's bytes, front to back; zeros once they run out.
public struct FuzzBytes {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    public var isEmpty: Bool { index >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// Any double, NaN and infinities included.
    public mutating func double() -> Double {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    /// A double that is often an ordinary number: chosen by the first byte among a raw bit pattern,
    /// a value in ±1000, and a value in ±1e6.
    public mutating func number() -> Double {
        switch byte() % 4 {
        case 0: return double()
        case 1: return Double(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte()))) / 32
        default: return Double(Int32(bitPattern: UInt32(byte()) << 24 | UInt32(byte()) << 16 | UInt32(byte()) << 8 | UInt32(byte()))) / 1000
        }
    }

    /// An optional `number()`.
    public mutating func optionalNumber() -> Double? { bool() ? number() : nil }
}

import CFuzzer

/// Runs libFuzzer with the process's arguments on `test`; returns its exit status.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}
