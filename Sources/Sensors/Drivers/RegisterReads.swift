/// The register reads every driver makes the same way: the identity check in `probe()` and the
/// "status flag, then the data block" read in `readIfReady()`. Each driver keeps its own register map,
/// identity value and scaling, and passes them in.
///
/// ```swift
/// try bus.checkIdentity(address: address, register: 0x4F, expected: 0x40, chip: .lis2mdl)
/// guard let bytes = try bus.readSampleIfReady(address: address, status: 0x67, ready: 0x08, start: 0x68, count: 6)
/// else { return nil }
/// ```
extension I2CBus {
    /// Reads one register, bus failures reported as `SensorError.bus`.
    func readSensorRegister(address: I2CAddress, register: UInt8) throws(SensorError) -> UInt8 {
        do { return try readRegister(address: address, register: register) } catch { throw .bus(error) }
    }

    /// Checks a magnetometer's identity register; `label` names it in the message, e.g. "WHO_AM_I".
    func checkIdentity(address: I2CAddress, register: UInt8, expected: UInt8, chip: ChipKind,
                       label: String = "WHO_AM_I") throws(SensorError) {
        let id = try readSensorRegister(address: address, register: register)
        guard id == expected else {
            throw .wrongChip(expected: chip, bus: busNumber, address: address,
                             evidence: identityEvidence(register: register, label: label, read: id, expected: [expected]))
        }
    }

    /// Checks an accelerometer's WHO_AM_I register.
    func checkIdentity(address: I2CAddress, register: UInt8, expected: UInt8, accelerometer: AccelerometerKind)
        throws(SensorError) {
        try checkIdentity(address: address, register: register, expected: [expected], accelerometer: accelerometer)
    }

    /// Checks an accelerometer's WHO_AM_I register against every value its revisions read; returns the one read.
    @discardableResult
    func checkIdentity(address: I2CAddress, register: UInt8, expected: [UInt8], accelerometer: AccelerometerKind)
        throws(SensorError) -> UInt8 {
        let id = try readSensorRegister(address: address, register: register)
        guard expected.contains(id) else {
            throw .wrongAccelerometer(expected: accelerometer, bus: busNumber, address: address,
                                      evidence: identityEvidence(register: register, label: nil, read: id, expected: expected))
        }
        return id
    }

    /// Reads `count` registers from `start`; a failure or a short reply is a `SensorError.bus`.
    func readSensorBlock(address: I2CAddress, start: UInt8, count: Int) throws(SensorError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try readRegisters(address: address, start: start, count: count) } catch { throw .bus(error) }
        guard bytes.count >= count else {
            throw .bus(.shortRead(bus: busNumber, address: address, expected: count, got: bytes.count))
        }
        return bytes
    }

    /// Reads the status register and, when any bit of `ready` is set, `count` data registers from
    /// `start`. Nil when no new sample is ready; a reply shorter than `count` is `.shortRead`.
    func readSampleIfReady(address: I2CAddress, status: UInt8, ready: UInt8, start: UInt8, count: Int)
        throws(SensorError) -> [UInt8]? {
        try readSample(address: address, status: status, ready: ready, count: count) { () throws(I2CError) in
            try readRegisters(address: address, start: start, count: count)
        }
    }

    /// `readSampleIfReady` into a `RegisterBlock` (at most 32 registers): no array per sample.
    func readSampleBlockIfReady(address: I2CAddress, status: UInt8, ready: UInt8, start: UInt8, count: Int)
        throws(SensorError) -> RegisterBlock? {
        try readSample(address: address, status: status, ready: ready, count: count) { () throws(I2CError) in
            try readBlock(address: address, start: start, count: count)
        }
    }

    /// The status register, and when any bit of `ready` is set, the data `read` reads (at least `count` bytes).
    /// Inlined into its two callers, so it is never run generic over the bytes' type.
    @inline(__always)
    private func readSample<Bytes: Collection<UInt8>>(address: I2CAddress, status: UInt8, ready: UInt8, count: Int,
                                                      _ read: () throws(I2CError) -> Bytes) throws(SensorError) -> Bytes? {
        let bytes: Bytes
        do {
            let flags = try readRegister(address: address, register: status)
            guard flags & ready != 0 else { return nil }
            bytes = try read()
        } catch { throw .bus(error) }
        guard bytes.count >= count else {
            throw .bus(.shortRead(bus: busNumber, address: address, expected: count, got: bytes.count))
        }
        return bytes
    }
}

/// "register 0x4f (WHO_AM_I) reads 0x00; expected 0x40" (no parenthesis when `label` is nil; several
/// expected values joined with "or").
private func identityEvidence(register: UInt8, label: String?, read: UInt8, expected: [UInt8]) -> String {
    let name = label.map { " (\($0))" } ?? ""
    return "register \(hexAddress(register))\(name) reads \(hexAddress(read)); expected "
        + expected.map { hexAddress($0) }.joined(separator: " or ")
}

/// Paces the reads of a chip without a data-ready flag (BNO055, CMPS14): a new reading at most once per
/// `period` on the driver's clock, so the reader's polls do not return the same sample twice.
///
/// ```swift
/// var pacer = ReadPacer(rate: 20)
/// guard pacer.isDue(at: now()) else { return nil }   // then read, then pacer.mark(now())
/// ```
struct ReadPacer {
    let period: Double
    private var last = -Double.infinity

    init(rate: Double) { period = 1 / rate }

    func isDue(at t: Double) -> Bool { t - last >= period - 1e-9 }
    mutating func mark(_ t: Double) { last = t }
    mutating func reset() { last = -Double.infinity }
}
