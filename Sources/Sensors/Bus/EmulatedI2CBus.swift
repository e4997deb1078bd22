/// A chip's register file as seen over I²C, implemented by the simulator's chip emulators.
public protocol RegisterDevice: AnyObject {
    /// A register write from the bus master.
    func write(register: UInt8, value: UInt8)
    /// A read of `count` consecutive registers (the emulator applies its own auto-increment rules).
    func read(start: UInt8, count: Int) -> [UInt8]
    /// A read of one register: what `read(start: register, count: 1)` returns (its default), for
    /// emulators that answer it without making an array.
    func readRegister(_ register: UInt8) -> UInt8
}

extension RegisterDevice {
    public func readRegister(_ register: UInt8) -> UInt8 { read(start: register, count: 1).first ?? 0 }
}

/// One transaction on an emulated bus, recorded in order so tests can assert exact traces.
public enum I2CTransaction: Equatable, Sendable, CustomStringConvertible {
    case write(address: I2CAddress, register: UInt8, value: UInt8)
    case read(address: I2CAddress, start: UInt8, count: Int)

    public var description: String {
        switch self {
        case .write(let a, let r, let v): return "\(hexAddress(a)) W \(hexAddress(r))←\(hexAddress(v))"
        case .read(let a, let r, let n): return "\(hexAddress(a)) R \(hexAddress(r))×\(n)"
        }
    }
}

/// An in-memory I²C bus with register-level devices attached, a transaction trace, and fault injection.
///
/// ```swift
/// let bus = EmulatedI2CBus(busNumber: 1)
/// bus.attach(QMC5883LEmulator(...), at: 0x0D)
/// var chip = try QMC5883L(bus: bus)
/// #expect(bus.trace.first == .write(address: 0x0D, register: 0x0B, value: 0x01))
/// ```
public final class EmulatedI2CBus: I2CBus {
    public let busNumber: Int
    private var devices: [I2CAddress: any RegisterDevice] = [:]
    /// Every transaction that reached the bus, in order (including failed ones).
    public private(set) var trace: [I2CTransaction] = []
    /// Whether to record transactions (turn off for long simulations).
    public var recordsTrace = true
    /// Faults to inject; see `I2CFaultPlan`.
    public var faults = I2CFaultPlan()

    public init(busNumber: Int = 1) { self.busNumber = busNumber }

    /// Attaches a device at a 7-bit address (replacing any device there).
    public func attach(_ device: any RegisterDevice, at address: I2CAddress) { devices[address] = device }

    /// Removes the device at an address.
    public func detach(_ address: I2CAddress) { devices[address] = nil }

    /// The device at an address, for tests that need to poke it.
    public func device(at address: I2CAddress) -> (any RegisterDevice)? { devices[address] }

    public func clearTrace() { trace.removeAll() }

    public func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        try device(for: .write(address: address, register: register, value: value), at: address)
            .write(register: register, value: value)
    }

    public func readRegisters(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        let chip = try device(for: .read(address: address, start: start, count: count), at: address)
        return faults.apply(to: chip.read(start: start, count: count))
    }

    /// One register, as `readRegisters(count: 1)` reads it (a fault plan garbles only longer reads),
    /// without the array: the reader reads a status register at every poll.
    public func readRegister(address: I2CAddress, register: UInt8) throws(I2CError) -> UInt8 {
        try device(for: .read(address: address, start: register, count: 1), at: address).readRegister(register)
    }

    /// Every transaction's start: recorded in the trace, then failed by the fault plan or by no
    /// device at the address (no acknowledge); else the device that answers it.
    private func device(for transaction: I2CTransaction, at address: I2CAddress) throws(I2CError) -> any RegisterDevice {
        if recordsTrace { trace.append(transaction) }
        if let error = faults.nextError(bus: busNumber, address: address) { throw error }
        guard let device = devices[address] else { throw .noAcknowledge(bus: busNumber, address: address) }
        return device
    }
}
