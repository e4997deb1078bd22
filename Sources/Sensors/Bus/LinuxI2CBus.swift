import CI2C
import Glibc
import Platform

/// A real I²C bus, `/dev/i2c-N`, through libi2c.
///
/// Selects the device with `ioctl(I2C_SLAVE)` — never `I2C_SLAVE_FORCE`, so an address claimed by a
/// kernel driver is reported, not stolen. Reads use the I²C block read where the adapter has it, and
/// single-byte reads otherwise.
///
/// ```swift
/// let bus = try LinuxI2CBus(number: 1)
/// let id = try bus.readRegister(address: 0x0D, register: 0x0D)
/// ```
public final class LinuxI2CBus: I2CBus {
    public let busNumber: Int
    public let path: String
    private let calls: any I2CSystemCalls
    private let fd: Int32
    private var selected: I2CAddress?
    private let hasBlockRead: Bool

    /// Opens `/dev/i2c-<number>`.
    public init(number: Int, calls: any I2CSystemCalls = LinuxI2CSystemCalls()) throws(I2CError) {
        busNumber = number
        path = "/dev/i2c-\(number)"
        self.calls = calls
        do {
            fd = try calls.open(path)
        } catch {
            switch error {
            case .noEntry, .noDevice, Errno(ENODEV): throw .busNotFound(path: path)
            case .accessDenied, .permissionDenied: throw .permissionDenied(path: path)
            default: throw .system(bus: number, address: nil, operation: "open \(path)", error)
            }
        }
        var funcs: UInt = 0
        do {
            funcs = try calls.functionality(fd)
        } catch {
            // ENOTTY: the node answers no I²C ioctl (a tty, /dev/null, a regular file): no adapter.
            if error == Errno(ENOTTY) {
                calls.close(fd)
                throw .notAnAdapter(path: path)
            }
        }
        hasBlockRead = funcs & UInt(I2C_FUNC_SMBUS_READ_I2C_BLOCK) != 0
    }

    deinit { calls.close(fd) }

    private func select(_ address: I2CAddress) throws(I2CError) {
        guard selected != address else { return }
        do {
            try calls.setSlaveAddress(fd, address)
        } catch {
            selected = nil
            if error == .busy { throw .addressBusy(bus: busNumber, address: address, driver: boundDriver(address)) }
            throw I2CError.from(error, bus: busNumber, address: address, operation: "select address")
        }
        selected = address
    }

    /// The kernel driver sysfs says holds the address, if any.
    func boundDriver(_ address: I2CAddress) -> KernelDriver? {
        let device = "/sys/bus/i2c/devices/" + KernelDriver.sysfsDevice(bus: busNumber, address: address)
        guard let link = calls.readLink(device + "/driver"), let name = Self.lastComponent(link) else { return nil }
        let module = calls.readLink(device + "/driver/module").flatMap(Self.lastComponent)
        return KernelDriver(name: name, module: module)
    }

    /// "hmc5843" from "../../../../bus/i2c/drivers/hmc5843"; nil for an empty path.
    static func lastComponent(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    public func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        try select(address)
        do {
            try calls.writeByteData(fd, register: register, value: value)
        } catch {
            throw I2CError.from(error, bus: busNumber, address: address, operation: "write")
        }
    }

    public func readRegisters(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        guard (1...32).contains(count) else { throw .unsupported(bus: busNumber, operation: "a \(count)-byte read") }
        try select(address)
        let bytes: [UInt8]
        do throws(Errno) {
            if hasBlockRead {
                bytes = try calls.readI2CBlock(fd, register: start, count: count)
            } else {
                var read: [UInt8] = []
                read.reserveCapacity(count)
                for i in 0..<count { read.append(try calls.readByteData(fd, register: start &+ UInt8(i))) }
                bytes = read
            }
        } catch {
            throw I2CError.from(error, bus: busNumber, address: address, operation: hasBlockRead ? "block read" : "read")
        }
        guard bytes.count == count else {
            throw .shortRead(bus: busNumber, address: address, expected: count, got: bytes.count)
        }
        return bytes
    }
}
