/// Register reads at one address during detection: each register is read once (single-byte reads,
/// the most widely supported transfer) and remembered, so every signature can look at it for free.
/// Writes are counted and only made by signatures that need them (see `Detector`).
final class AddressProbe {
    let bus: any I2CBus
    let address: I2CAddress
    let sleep: (Double) -> Void
    private var cache: [UInt8: Result<UInt8, I2CError>] = [:]
    private(set) var order: [UInt8] = []

    init(bus: any I2CBus, address: I2CAddress, sleep: @escaping (Double) -> Void) {
        self.bus = bus
        self.address = address
        self.sleep = sleep
    }

    /// The register's value, or nil when the read failed.
    func read(_ register: UInt8) -> UInt8? {
        if case .success(let value) = result(register) { return value }
        return nil
    }

    /// The read's result, from the cache when the register was read before.
    func result(_ register: UInt8) -> Result<UInt8, I2CError> {
        if let cached = cache[register] { return cached }
        let fresh = readFresh(register)
        return fresh
    }

    /// Reads the register again, bypassing the cache (after a write changed the chip's state).
    @discardableResult
    func readFresh(_ register: UInt8) -> Result<UInt8, I2CError> {
        let result: Result<UInt8, I2CError>
        do {
            result = .success(try bus.readRegister(address: address, register: register))
        } catch {
            result = .failure(error)
        }
        if cache[register] == nil { order.append(register) }
        cache[register] = result
        return result
    }

    /// Writes a register; false when the write failed.
    @discardableResult
    func write(_ register: UInt8, _ value: UInt8) -> Bool {
        cache[register] = nil
        do {
            try bus.writeRegister(address: address, register: register, value: value)
            return true
        } catch {
            return false
        }
    }

    /// A block read (for a data check), or nil on failure.
    func readBlock(_ start: UInt8, count: Int) -> [UInt8]? {
        guard let bytes = try? bus.readRegisters(address: address, start: start, count: count), bytes.count == count
        else { return nil }
        return bytes
    }

    /// "reg 0x00 = 0x12, reg 0x0f = 0x00": what was read, for an unknown device's evidence.
    var readSummary: String {
        let shown = order.prefix(6).compactMap { reg -> String? in
            guard let value = read(reg) else { return nil }
            return "reg \(hexAddress(reg)) = \(hexAddress(value))"
        }
        return shown.joined(separator: ", ")
    }
}

/// "reg 0x0f = 0x3d": one register and its value as evidence.
func regText(_ register: UInt8, _ value: UInt8) -> String { "reg \(hexAddress(register)) = \(hexAddress(value))" }
