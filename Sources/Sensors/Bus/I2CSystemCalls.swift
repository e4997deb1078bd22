import CI2C
import Glibc
import Platform

/// The system calls behind `LinuxI2CBus`, one method each, so tests can replace them and assert the
/// exact call trace (that `I2C_SLAVE` is used and `I2C_SLAVE_FORCE` never is, that errno maps right).
public protocol I2CSystemCalls: AnyObject {
    func open(_ path: String) throws(Errno) -> Int32
    func close(_ fd: Int32)
    /// `ioctl(fd, I2C_SLAVE, address)`.
    func setSlaveAddress(_ fd: Int32, _ address: I2CAddress) throws(Errno)
    /// `ioctl(fd, I2C_FUNCS, &funcs)`.
    func functionality(_ fd: Int32) throws(Errno) -> UInt
    /// `i2c_smbus_write_byte_data`.
    func writeByteData(_ fd: Int32, register: UInt8, value: UInt8) throws(Errno)
    /// `i2c_smbus_read_byte_data`.
    func readByteData(_ fd: Int32, register: UInt8) throws(Errno) -> UInt8
    /// `i2c_smbus_read_i2c_block_data` (up to 32 bytes).
    func readI2CBlock(_ fd: Int32, register: UInt8, count: Int) throws(Errno) -> [UInt8]
    /// `readlink(path)`: where a symbolic link points, or nil when it is not one (or absent). Used for
    /// sysfs (`/sys/bus/i2c/devices/1-001e/driver`), so tests can fake the kernel's view.
    func readLink(_ path: String) -> String?
}

/// The real system calls, through libi2c and ioctl.
public final class LinuxI2CSystemCalls: I2CSystemCalls {
    public init() {}

    public func open(_ path: String) throws(Errno) -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw Errno.current }
        return fd
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func setSlaveAddress(_ fd: Int32, _ address: I2CAddress) throws(Errno) {
        guard ci2c_set_slave(fd, Int(address)) == 0 else { throw Errno.current }
    }

    public func functionality(_ fd: Int32) throws(Errno) -> UInt {
        var funcs: UInt = 0
        guard ci2c_funcs(fd, &funcs) == 0 else { throw Errno.current }
        return funcs
    }

    public func writeByteData(_ fd: Int32, register: UInt8, value: UInt8) throws(Errno) {
        guard i2c_smbus_write_byte_data(fd, register, value) >= 0 else { throw Errno.current }
    }

    public func readByteData(_ fd: Int32, register: UInt8) throws(Errno) -> UInt8 {
        let v = i2c_smbus_read_byte_data(fd, register)
        guard v >= 0 else { throw Errno.current }
        return UInt8(truncatingIfNeeded: v)
    }

    public func readI2CBlock(_ fd: Int32, register: UInt8, count: Int) throws(Errno) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBufferPointer {
            i2c_smbus_read_i2c_block_data(fd, register, UInt8(min(count, 32)), $0.baseAddress)
        }
        guard n >= 0 else { throw Errno.current }
        return Array(buffer[0..<Int(n)])
    }

    public func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBufferPointer { p -> Int in
            guard let base = p.baseAddress else { return -1 }
            return readlink(path, base, p.count - 1)
        }
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
