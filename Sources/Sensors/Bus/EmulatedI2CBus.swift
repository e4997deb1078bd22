/// A chip's register file as seen over I²C, implemented by the simulator's chip emulators.
public protocol RegisterDevice: AnyObject {
    /// A register write from the bus master.
    func write(register: UInt8, value: UInt8)
    /// A read of `count` consecutive registers (the emulator applies its own auto-increment rules).
    func read(start: UInt8, count: Int) -> [UInt8]
    /// A read of one register: what `read(start: register, count: 1)` returns (its default), for
    /// emulators that answer it without making an array.
    func readRegister(_ register: UInt8) -> UInt8
    /// A read of at most 32 consecutive registers into a block: what `read(start:count:)` returns
    /// (its default), for emulators that answer it without making an array.
    func readBlock(start: UInt8, count: Int) -> RegisterBlock
}

extension RegisterDevice {
    public func readRegister(_ register: UInt8) -> UInt8 { read(start: register, count: 1).first ?? 0 }
    public func readBlock(start: UInt8, count: Int) -> RegisterBlock { RegisterBlock(read(start: start, count: count)) }
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
    /// What transactions read and change: the devices, the trace and the fault plan, in one value.
    /// Not checked for exclusivity at run time (a dozen checks a sample, each through the runtime's
    /// access set): it is private, the bus is not Sendable, and no access to it calls out of the
    /// bus (a device is called, and the fault plan's clock read, only after the access that found
    /// it ended), so nothing can reach the bus again during one.
    @exclusivity(unchecked) private var state = State()

    private struct State {
        /// The devices attached, by address. A bus holds a few: a look along them is cheaper than a
        /// dictionary's hashing, at every transaction.
        var devices: [(address: I2CAddress, device: any RegisterDevice)] = []
        var trace: [I2CTransaction] = []
        var recordsTrace = true
        var faults = I2CFaultPlan()
    }

    /// Every transaction that reached the bus, in order (including failed ones).
    public var trace: [I2CTransaction] { state.trace }
    /// Whether to record transactions (turn off for long simulations).
    public var recordsTrace: Bool {
        get { state.recordsTrace }
        set { state.recordsTrace = newValue }
    }
    /// Faults to inject; see `I2CFaultPlan`.
    public var faults: I2CFaultPlan {
        get { state.faults }
        set {
            // The old plan (its clock's captures) is let go after the access, not inside it.
            let old = state.faults
            withExtendedLifetime(old) { state.faults = newValue }
        }
    }

    public init(busNumber: Int = 1) { self.busNumber = busNumber }

    /// Attaches a device at a 7-bit address (replacing any device there).
    public func attach(_ device: any RegisterDevice, at address: I2CAddress) {
        guard let i = slot(of: address) else { return state.devices.append((address, device)) }
        // The device replaced is let go after the access, not inside it.
        let replaced = state.devices[i].device
        withExtendedLifetime(replaced) { state.devices[i].device = device }
    }

    /// Removes the device at an address.
    public func detach(_ address: I2CAddress) {
        guard let i = slot(of: address) else { return }
        let removed = state.devices.remove(at: i)   // let go after the access
        withExtendedLifetime(removed) {}
    }

    /// The device at an address, for tests that need to poke it.
    public func device(at address: I2CAddress) -> (any RegisterDevice)? { slot(of: address).map { state.devices[$0].device } }

    private func slot(of address: I2CAddress) -> Int? { state.devices.firstIndex { $0.address == address } }

    public func clearTrace() { state.trace.removeAll() }

    public func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        try device(for: .write(address: address, register: register, value: value), at: address)
            .write(register: register, value: value)
    }

    public func readRegisters(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        let chip = try device(for: .read(address: address, start: start, count: count), at: address)
        let bytes = chip.read(start: start, count: count)
        return state.faults.garbles ? state.faults.apply(to: bytes) : bytes
    }

    /// A block, as `readRegisters` reads it (the fault plan's garbling too), without the array
    /// unless a garble is pending: the drivers read each sample's data with it.
    public func readBlock(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> RegisterBlock {
        let chip = try device(for: .read(address: address, start: start, count: count), at: address)
        let block = chip.readBlock(start: start, count: count)
        return state.faults.garbles ? RegisterBlock(state.faults.apply(to: Array(block))) : block
    }

    /// One register, as `readRegisters(count: 1)` reads it (a fault plan garbles only longer reads),
    /// without the array: the reader reads a status register at every poll.
    public func readRegister(address: I2CAddress, register: UInt8) throws(I2CError) -> UInt8 {
        try device(for: .read(address: address, start: register, count: 1), at: address).readRegister(register)
    }

    /// Every transaction's start: recorded in the trace, then failed by the fault plan or by no
    /// device at the address (no acknowledge); else the device that answers it.
    private func device(for transaction: I2CTransaction, at address: I2CAddress) throws(I2CError) -> any RegisterDevice {
        if state.recordsTrace { state.trace.append(transaction) }
        if state.faults.isArmed {
            // The plan's clock (the owner's closure) is read outside any access to the state.
            let clock = state.faults.now
            let time = state.faults.needsTime(address) ? clock() : 0
            if let error = state.faults.nextError(bus: busNumber, address: address, now: time) { throw error }
        }
        for slot in state.devices where slot.address == address { return slot.device }
        throw .noAcknowledge(bus: busNumber, address: address)
    }
}
