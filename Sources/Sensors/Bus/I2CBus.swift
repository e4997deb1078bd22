/// A 7-bit I²C device address.
public typealias I2CAddress = UInt8

/// The I²C operations every driver needs: write one register, read a run of registers.
///
/// Implemented by `LinuxI2CBus` (a real `/dev/i2c-N`) and `EmulatedI2CBus` (register-level chip
/// emulators, used by the simulator and the tests), so drivers run unchanged on both.
///
/// ```swift
/// try bus.writeRegister(address: 0x0D, register: 0x0B, value: 0x01)
/// let bytes = try bus.readRegisters(address: 0x0D, start: 0x00, count: 6)
/// ```
public protocol I2CBus: AnyObject {
    /// Bus number as in `/dev/i2c-N` (for messages and profile keys).
    var busNumber: Int { get }

    /// Writes one byte to a register (SMBus "write byte data").
    func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError)

    /// Reads `count` (1…32) consecutive registers starting at `start` (I²C block read with a
    /// repeated start; the chip auto-increments the register pointer).
    func readRegisters(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> [UInt8]

    /// Reads one register (a status register, at every poll). By default a one-byte `readRegisters`;
    /// the emulated bus answers it without making an array.
    func readRegister(address: I2CAddress, register: UInt8) throws(I2CError) -> UInt8

    /// `readRegisters` into a `RegisterBlock` (a sample's data, at every sample). By default
    /// `readRegisters`' bytes; the emulated bus answers it without making an array.
    func readBlock(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> RegisterBlock
}

extension I2CBus {
    /// Reads one register.
    public func readRegister(address: I2CAddress, register: UInt8) throws(I2CError) -> UInt8 {
        let bytes = try readRegisters(address: address, start: register, count: 1)
        guard let first = bytes.first else { throw .shortRead(bus: busNumber, address: address, expected: 1, got: 0) }
        return first
    }
}

extension I2CBus {
    /// `readRegisters`' bytes as a block (at most `RegisterBlock.capacity` of them).
    public func readBlock(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> RegisterBlock {
        RegisterBlock(try readRegisters(address: address, start: start, count: count))
    }
}

/// Up to 32 register bytes (the most an I²C block read returns) held in place, not in an array:
/// what a driver reads a sample's data into, so a sample allocates nothing.
///
/// ```swift
/// let block = try bus.readBlock(address: 0x0D, start: 0x00, count: 6)
/// let x = Int16(bitPattern: UInt16(block[0]) | UInt16(block[1]) << 8)
/// ```
public struct RegisterBlock: RandomAccessCollection, Sendable {
    /// The most bytes a block holds.
    public static let capacity = 32
    private var bytes = InlineArray<32, UInt8>(repeating: 0)
    public private(set) var endIndex = 0
    public var startIndex: Int { 0 }

    /// An empty block.
    public init() {}

    /// The first `capacity` bytes of `bytes`.
    public init(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            guard endIndex < Self.capacity else { break }
            append(byte)
        }
    }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < endIndex, "register block index out of range")
        return bytes[position]
    }

    /// Adds a byte at the end (at most `capacity` in all).
    public mutating func append(_ byte: UInt8) {
        precondition(endIndex < Self.capacity, "a register block holds at most 32 bytes")
        bytes[endIndex] = byte
        endIndex += 1
    }
}

/// Formats an address the way `i2cdetect` and datasheets do: `0x0d`.
public func hexAddress(_ address: I2CAddress) -> String {
    let digits = String(address, radix: 16)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
}
