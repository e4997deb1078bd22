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
}

extension I2CBus {
    /// Reads one register.
    public func readRegister(address: I2CAddress, register: UInt8) throws(I2CError) -> UInt8 {
        let bytes = try readRegisters(address: address, start: register, count: 1)
        guard let first = bytes.first else { throw .shortRead(bus: busNumber, address: address, expected: 1, got: 0) }
        return first
    }
}

/// Formats an address the way `i2cdetect` and datasheets do: `0x0d`.
public func hexAddress(_ address: I2CAddress) -> String {
    let digits = String(address, radix: 16)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
}
