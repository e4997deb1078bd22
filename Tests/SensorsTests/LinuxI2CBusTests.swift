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
    /// The fake sysfs: symbolic links by path.
    var links: [String: String] = [:]

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
    func readLink(_ path: String) -> String? {
        log.append("readlink \(path)")
        return links[path]
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

    @Test("a register block is the same one block read as readRegisters makes")
    func readsABlockThroughTheSameBlockRead() throws {
        let calls = ScriptedCalls()
        calls.registers = [0x03: 7, 0x04: 6, 0x05: 5, 0x06: 4]
        let bus = try LinuxI2CBus(number: 1, calls: calls)
        let block = try bus.readBlock(address: 0x0D, start: 0x03, count: 4)
        #expect(Array(block) == [7, 6, 5, 4])
        #expect(calls.log.suffix(1) == ["read block 0x03×4"])
        #expect(throws: I2CError.unsupported(bus: 1, operation: "a 33-byte read")) {
            try bus.readBlock(address: 0x0D, start: 0x00, count: 33)
        }
    }

    @Test func aRegisterBlockHoldsAtMostThirtyTwoBytes() {
        let block = RegisterBlock((0..<40).map { UInt8($0) })
        #expect(block.count == RegisterBlock.capacity)
        #expect(Array(block) == (0..<32).map { UInt8($0) })
        #expect(RegisterBlock().isEmpty)
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

    /// ENODEV, as i2c-stub and some USB adapters answer for an empty address, is nothing there (as
    /// i2cdetect takes it), not an unknown device.
    @Test func enodevIsNothingThere() throws {
        let calls = ScriptedCalls(); calls.readError = Errno(19)
        let bus = try LinuxI2CBus(number: 1, calls: calls)
        #expect(throws: I2CError.noAcknowledge(bus: 1, address: 0x0D)) { try bus.readRegister(address: 0x0D, register: 0x0D) }
        #expect(Detector().identify(bus, at: 0x0D) == nil)
        #expect(Detector(addresses: [0x0D, 0x1E, 0x68]).scan(bus).isEmpty)
        // Other errors still show as a device that did not answer cleanly.
        let odd = ScriptedCalls(); odd.readError = .ioError
        let rows = Detector(addresses: [0x1E], sleep: { _ in }).scan(try LinuxI2CBus(number: 1, calls: odd))
        #expect(rows.count == 1 && rows.first?.chip == .unknown)
    }

    /// A claimed address: the advice names the driver sysfs says holds it, and its module.
    @Test func aClaimedAddressNamesTheDriverHoldingIt() throws {
        let calls = ScriptedCalls(); calls.selectError = .busy
        calls.links = ["/sys/bus/i2c/devices/1-001e/driver": "../../../../../../bus/i2c/drivers/hmc5843",
                       "/sys/bus/i2c/devices/1-001e/driver/module": "../../../../module/hmc5843_i2c"]
        let bus = try LinuxI2CBus(number: 1, calls: calls)
        let expected = I2CError.addressBusy(bus: 1, address: 0x1E, driver: KernelDriver(name: "hmc5843", module: "hmc5843_i2c"))
        #expect(throws: expected) { try bus.readRegister(address: 0x1E, register: 0x0A) }
        #expect(calls.log.contains("readlink /sys/bus/i2c/devices/1-001e/driver"))
        #expect(expected.message.contains("the kernel driver 'hmc5843'"))
        #expect(expected.message.contains("sudo rmmod hmc5843_i2c"))
        #expect(!expected.message.contains("qmc5883l"))
        let row = Detector(addresses: [0x1E]).scan(bus).first
        #expect(row?.evidence.contains("hmc5843") == true, "\(String(describing: row))")

        // Built in (no module link): unbind instead of rmmod.
        let builtIn = ScriptedCalls(); builtIn.selectError = .busy
        builtIn.links = ["/sys/bus/i2c/devices/3-000d/driver": "../../bus/i2c/drivers/qmc5883l"]
        let bus3 = try LinuxI2CBus(number: 3, calls: builtIn)
        do {
            _ = try bus3.readRegister(address: 0x0D, register: 0)
            Issue.record("no error")
        } catch {
            #expect(error == .addressBusy(bus: 3, address: 0x0D, driver: KernelDriver(name: "qmc5883l")))
            #expect(error.message.contains("echo 3-000d | sudo tee /sys/bus/i2c/drivers/qmc5883l/unbind"))
        }

        // sysfs names none: no driver invented.
        let unknown = ScriptedCalls(); unknown.selectError = .busy
        let bus2 = try LinuxI2CBus(number: 2, calls: unknown)
        do {
            _ = try bus2.readRegister(address: 0x0D, register: 0)
            Issue.record("no error")
        } catch {
            #expect(error == .addressBusy(bus: 2, address: 0x0D, driver: nil))
            #expect(error.message.contains("a kernel driver") && !error.message.contains("qmc5883l"))
            #expect(error.message.contains("/sys/bus/i2c/devices/2-000d/driver"))
        }
        #expect(KernelDriver.sysfsDevice(bus: 11, address: 0x68) == "11-0068")
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
