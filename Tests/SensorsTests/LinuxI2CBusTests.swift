import CI2C
import Platform
import Sensors
import Testing

/// Records every system call and answers from a script, so the Linux bus can be tested without hardware.
final class ScriptedCalls: I2CSystemCalls {
    var log: [String] = []
    var openError: Errno?
    var selectError: Errno?
    var readError: Errno?
    var funcsError: Errno?
    var funcs: UInt = UInt(I2C_FUNC_SMBUS_READ_I2C_BLOCK)
    var registers: [UInt8: UInt8] = [:]

    func open(_ path: String) throws(Errno) -> Int32 {
        log.append("open \(path)")
        if let openError { throw openError }
        return 7
    }
    func close(_ fd: Int32) { log.append("close \(fd)") }
    func setSlaveAddress(_ fd: Int32, _ address: I2CAddress) throws(Errno) {
        log.append("ioctl I2C_SLAVE \(hexAddress(address))")
        if let selectError { throw selectError }
    }
    func functionality(_ fd: Int32) throws(Errno) -> UInt {
        log.append("ioctl I2C_FUNCS")
        if let funcsError { throw funcsError }
        return funcs
    }
    func writeByteData(_ fd: Int32, register: UInt8, value: UInt8) throws(Errno) {
        log.append("write \(hexAddress(register))=\(hexAddress(value))")
        registers[register] = value
    }
    func readByteData(_ fd: Int32, register: UInt8) throws(Errno) -> UInt8 {
        log.append("read byte \(hexAddress(register))")
        if let readError { throw readError }
        return registers[register] ?? 0
    }
    func readI2CBlock(_ fd: Int32, register: UInt8, count: Int) throws(Errno) -> [UInt8] {
        log.append("read block \(hexAddress(register))×\(count)")
        if let readError { throw readError }
        return (0..<count).map { registers[register &+ UInt8($0)] ?? 0 }
    }
}

@Suite struct LinuxI2CBusTests {
    @Test func selectsWithI2CSlaveOnceAndUsesBlockReads() throws {
        let calls = ScriptedCalls()
        calls.registers = [0x00: 1, 0x01: 2, 0x02: 3]
        do {
            let bus = try LinuxI2CBus(number: 1, calls: calls)
            try bus.writeRegister(address: 0x0D, register: 0x0B, value: 0x01)
            #expect(try bus.readRegisters(address: 0x0D, start: 0x00, count: 3) == [1, 2, 3])
            _ = try bus.readRegister(address: 0x1E, register: 0x0A)
        }
        #expect(calls.log == [
            "open /dev/i2c-1", "ioctl I2C_FUNCS", "ioctl I2C_SLAVE 0x0d", "write 0x0b=0x01",
            "read block 0x00×3", "ioctl I2C_SLAVE 0x1e", "read block 0x0a×1", "close 7",
        ])
        #expect(!calls.log.contains { $0.contains("FORCE") })
    }

    @Test func fallsBackToByteReadsWithoutBlockSupport() throws {
        let calls = ScriptedCalls()
        calls.funcs = 0
        calls.registers = [0x10: 9, 0x11: 8]
        let bus = try LinuxI2CBus(number: 3, calls: calls)
        #expect(try bus.readRegisters(address: 0x30, start: 0x10, count: 2) == [9, 8])
        #expect(calls.log.suffix(2) == ["read byte 0x10", "read byte 0x11"])
    }

    @Test func mapsErrnoToTypedErrors() throws {
        let missing = ScriptedCalls(); missing.openError = .noEntry
        #expect(throws: I2CError.busNotFound(path: "/dev/i2c-1")) { try LinuxI2CBus(number: 1, calls: missing) }
        let denied = ScriptedCalls(); denied.openError = .accessDenied
        #expect(throws: I2CError.permissionDenied(path: "/dev/i2c-1")) { try LinuxI2CBus(number: 1, calls: denied) }

        let nak = ScriptedCalls(); nak.readError = Errno(121)
        let bus = try LinuxI2CBus(number: 1, calls: nak)
        #expect(throws: I2CError.noAcknowledge(bus: 1, address: 0x0D)) { try bus.readRegisters(address: 0x0D, start: 0, count: 6) }

        let busy = ScriptedCalls(); busy.selectError = .busy
        let bus2 = try LinuxI2CBus(number: 1, calls: busy)
        #expect(throws: I2CError.addressBusy(bus: 1, address: 0x1E)) { try bus2.writeRegister(address: 0x1E, register: 0, value: 0) }
    }

    @Test func messagesSayWhatToDo() {
        #expect(I2CError.permissionDenied(path: "/dev/i2c-1").message.contains("usermod -aG i2c"))
        #expect(I2CError.busNotFound(path: "/dev/i2c-1").message.contains("dtparam=i2c_arm=on"))
        #expect(I2CError.noAcknowledge(bus: 1, address: 0x0D).message.contains("i2cdetect -y 1"))
        #expect(I2CError.noAcknowledge(bus: 1, address: 0x0D).isTransient)
        #expect(!I2CError.permissionDenied(path: "x").isTransient)
    }

    @Test func rejectsOversizedReads() throws {
        let bus = try LinuxI2CBus(number: 1, calls: ScriptedCalls())
        #expect(throws: I2CError.self) { try bus.readRegisters(address: 0x0D, start: 0, count: 33) }
    }

    /// A node that is not an adapter (a tty, /dev/null) answers ENOTTY: said so, and closed.
    @Test func aNodeThatIsNotAnAdapterIsSaidToBeOne() {
        let calls = ScriptedCalls(); calls.funcsError = Errno(25)   // ENOTTY
        #expect(throws: I2CError.notAnAdapter(path: "/dev/i2c-4")) { try LinuxI2CBus(number: 4, calls: calls) }
        #expect(calls.log == ["open /dev/i2c-4", "ioctl I2C_FUNCS", "close 7"])
        #expect(I2CError.notAnAdapter(path: "/dev/i2c-4").message.contains("is not an I²C adapter"))
        #expect(I2CError.notAnAdapter(path: "/dev/i2c-4").exitCode == .unavailable)
        // Another failure of the query is not that: the bus is used without block reads.
        let odd = ScriptedCalls(); odd.funcsError = .ioError
        #expect((try? LinuxI2CBus(number: 4, calls: odd)) != nil)
    }

    @Test func detectOnANodeThatIsNotAnAdapterSaysSoAndIsUnavailable() {
        let scan = SystemScan(listBuses: { [4] }, openBus: { number throws(I2CError) in
            let calls = ScriptedCalls(); calls.funcsError = Errno(25)
            return try LinuxI2CBus(number: number, calls: calls)
        })
        #expect(throws: DetectionError.notAnAdapter(path: "/dev/i2c-4")) { try scan.run(bus: 4) }
        #expect(DetectionError.notAnAdapter(path: "/dev/i2c-4").exitCode == .unavailable)
    }
}
