import Platform

/// The kernel driver bound to an I²C address, as sysfs names it: the driver
/// (`/sys/bus/i2c/devices/1-001e/driver` → `hmc5843`) and the module it lives in
/// (`/sys/bus/i2c/drivers/hmc5843/module` → `hmc5843_i2c`), nil when built into the kernel.
public struct KernelDriver: Sendable, Equatable {
    public var name: String
    public var module: String?

    public init(name: String, module: String? = nil) {
        self.name = name
        self.module = module
    }

    /// The sysfs name of an I²C client: "1-001e" (bus, then the address in four hex digits).
    public static func sysfsDevice(bus: Int, address: I2CAddress) -> String {
        let hex = String(address, radix: 16)
        return "\(bus)-" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// What to do to read the chip ourselves, naming the driver when it is known.
    static func advice(_ driver: KernelDriver?, bus: Int, address: I2CAddress) -> String {
        let device = "/sys/bus/i2c/devices/" + sysfsDevice(bus: bus, address: address)
        guard let driver else {
            return "Unload the driver that holds it (readlink \(device)/driver names it; 'sudo rmmod MODULE' or "
                + "remove its dtoverlay from /boot/firmware/config.txt) to read the chip here."
        }
        if let module = driver.module {
            return "Unload it ('sudo rmmod \(sanitize(module))', or remove the dtoverlay that loads it from "
                + "/boot/firmware/config.txt) to read the chip here."
        }
        return "It is built into the kernel: unbind it ('echo \(sysfsDevice(bus: bus, address: address)) | sudo tee "
            + "/sys/bus/i2c/drivers/\(sanitize(driver.name))/unbind', or remove its dtoverlay) to read the chip here."
    }
}

/// Everything that can go wrong talking to an I²C device, mapped from errno to what a user can act on.
public enum I2CError: Error, Equatable, Sendable {
    /// `/dev/i2c-N` does not exist: I²C is not enabled, or the bus number is wrong.
    case busNotFound(path: String)
    /// The node opened, but it is not an I²C adapter (ENOTTY to the I²C ioctls).
    case notAnAdapter(path: String)
    /// The device node exists but this user may not open it.
    case permissionDenied(path: String)
    /// Nothing acknowledged the address (ENXIO / EREMOTEIO, errno 121): wiring, power or address.
    case noAcknowledge(bus: Int, address: I2CAddress)
    /// A kernel driver has claimed this address (EBUSY). We never force it. `driver` is the one sysfs
    /// names (`/sys/bus/i2c/devices/N-00AA/driver`), nil when it cannot tell.
    case addressBusy(bus: Int, address: I2CAddress, driver: KernelDriver? = nil)
    /// The bus timed out (a stuck SDA line, or clock stretching gone wrong).
    case timeout(bus: Int, address: I2CAddress)
    /// The adapter cannot do the transfer we asked for.
    case unsupported(bus: Int, operation: String)
    /// Fewer bytes arrived than asked for.
    case shortRead(bus: Int, address: I2CAddress, expected: Int, got: Int)
    /// Every byte of a data read was 0xFF: the data line held high (a loose SDA wire, a device gone
    /// quiet), not a reading.
    case allOnes(bus: Int, address: I2CAddress)
    /// Any other system error.
    case system(bus: Int, address: I2CAddress?, operation: String, Errno)

    /// Maps an errno from an I²C transfer.
    public static func from(_ e: Errno, bus: Int, address: I2CAddress, operation: String) -> I2CError {
        switch e {
        // ENODEV (19) is what some adapters (i2c-stub, several USB bridges) answer for an empty
        // address; i2cdetect treats it, like ENXIO and EREMOTEIO, as nothing there.
        case .noDevice, .remoteIO, Errno(121), Errno(19): return .noAcknowledge(bus: bus, address: address)
        case .busy: return .addressBusy(bus: bus, address: address)
        case .timedOut: return .timeout(bus: bus, address: address)
        case Errno(95): return .unsupported(bus: bus, operation: operation)
        case Errno(22) where operation.contains("block"): return .unsupported(bus: bus, operation: operation)
        default: return .system(bus: bus, address: address, operation: operation, e)
        }
    }

    /// True for errors a retry can cure (a NAK burst, a timeout), as opposed to set-up problems.
    public var isTransient: Bool {
        switch self {
        case .noAcknowledge, .timeout, .shortRead, .allOnes: return true
        case .system(_, _, _, let e): return e == .ioError || e == .interrupted || e == .wouldBlock
        default: return false
        }
    }

    public var message: String {
        switch self {
        case .busNotFound(let path):
            return "\(path) does not exist: I²C is not enabled or the bus number is wrong.\n"
                + "On a Raspberry Pi: add 'dtparam=i2c_arm=on' to /boot/firmware/config.txt (or run "
                + "'sudo raspi-config' → Interface Options → I2C), then reboot. Or try --simulate."
        case .notAnAdapter(let path):
            return "\(path) is not an I²C adapter (it answers no I²C request: inappropriate ioctl for device).\n"
                + "Check the bus number: 'i2cdetect -l' lists the adapters, 'ls /dev/i2c-*' their nodes. Or try --simulate."
        case .permissionDenied(let path):
            return "permission denied opening \(path).\n"
                + "Add yourself to the i2c group: 'sudo usermod -aG i2c $USER', then log out and in again. "
                + "Root is not needed."
        case .noAcknowledge(let bus, let address):
            return "nothing answered on bus \(bus) at \(hexAddress(address)) (errno 121, Remote I/O error).\n"
                + "Check the wiring (SDA to pin 3, SCL to pin 5, VCC to 3.3 V pin 1, GND to pin 6), "
                + "the power, and the bus: 'i2cdetect -y \(bus)' lists the addresses that answer."
        case .addressBusy(let bus, let address, let driver):
            return "address \(hexAddress(address)) on bus \(bus) is claimed by "
                + (driver.map { "the kernel driver '\(sanitize($0.name))'" } ?? "a kernel driver")
                + " (shown as UU by i2cdetect). " + KernelDriver.advice(driver, bus: bus, address: address)
        case .timeout(let bus, let address):
            return "the I²C bus \(bus) timed out talking to \(hexAddress(address)): check for a loose wire or a "
                + "missing pull-up, and power-cycle the board."
        case .unsupported(let bus, let operation):
            return "the I²C adapter of bus \(bus) does not support \(operation)."
        case .shortRead(let bus, let address, let expected, let got):
            return "short read from \(hexAddress(address)) on bus \(bus): \(got) of \(expected) bytes."
        case .allOnes(let bus, let address):
            return "read only 0xff bytes from \(hexAddress(address)) on bus \(bus): the data line is held high; "
                + "check the SDA wire and the pull-ups"
        case .system(let bus, let address, let operation, let e):
            return "I²C \(operation) on bus \(bus)" + (address.map { " at \(hexAddress($0))" } ?? "") + " failed: \(e)"
        }
    }
}
