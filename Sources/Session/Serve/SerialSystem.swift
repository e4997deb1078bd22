import Glibc
import Platform

/// The system calls behind a serial NMEA 0183 output, so tests drive a port that is slow, full,
/// unplugged and plugged in again on a manual clock.
///
/// ```swift
/// let serial = LinuxSerialPorts()
/// let fd = try serial.open("/dev/ttyUSB0", baud: 4800)
/// _ = serial.write(fd, Array("$HCHDT,123.4,T*2B\r\n".utf8)[...])
/// ```
public protocol SerialSystem: AnyObject {
    /// Opens the port for writing, raw 8N1 at `baud`, `CLOCAL` (no modem lines waited for), no flow
    /// control, non-blocking, close-on-exec; what was left in its output queue is dropped.
    func open(_ path: String, baud: Int) throws(SerialError) -> Int32
    /// Writes what the port takes now.
    func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SendOutcome
    /// Bytes written but not yet on the wire (`TIOCOUTQ`), nil when the driver cannot say.
    func pending(_ fd: Int32) -> Int?
    func close(_ fd: Int32)
}

/// Why a serial port cannot be used.
public enum SerialError: Error, Equatable, Sendable {
    /// The path does not exist (yet): a USB adapter not plugged in, or a wrong name.
    case absent(path: String)
    /// This user may not open it.
    case permission(path: String)
    /// The path is not a serial port (it answers no terminal request).
    case notASerialPort(path: String)
    /// Any other failure.
    case system(path: String, operation: String, Errno)

    /// True when the port may appear later by itself (USB unplugged): keep trying.
    public var mayReturn: Bool {
        switch self {
        case .absent: return true
        case .system(_, _, let e): return e == .noDevice || e == Errno(ENODEV) || e == .ioError || e == .busy
        default: return false
        }
    }
}

extension SerialError: UserFacingError {
    public var message: String {
        switch self {
        case .absent(let path):
            return "\(sanitize(path)) does not exist: plug in the serial adapter, or check the name "
                + "('ls /dev/serial/by-id/' lists USB serial ports by a name that does not change)"
        case .permission(let path):
            return "permission denied opening \(sanitize(path)): serial ports belong to the dialout group; "
                + "add yourself: 'sudo usermod -aG dialout $USER', then log out and back in (the service's user is in it already)"
        case .notASerialPort(let path):
            return "\(sanitize(path)) is not a serial port (it takes no terminal settings); give a tty such as "
                + "/dev/ttyUSB0, /dev/ttyACM0, /dev/ttyAMA0 or /dev/serial0"
        case .system(let path, let operation, let e):
            return "\(operation) \(sanitize(path)) failed: \(e)"
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .notASerialPort: return .usage
        default: return .unavailable
        }
    }
}

/// The real serial ports, through termios.
public final class LinuxSerialPorts: SerialSystem {
    public init() {}

    /// The termios speed constant for a baud rate the port may use.
    static func speed(_ baud: Int) -> speed_t? {
        switch baud {
        case 4800: return speed_t(B4800)
        case 9600: return speed_t(B9600)
        case 19200: return speed_t(B19200)
        case 38400: return speed_t(B38400)
        case 57600: return speed_t(B57600)
        case 115200: return speed_t(B115200)
        default: return nil
        }
    }

    public func open(_ path: String, baud: Int) throws(SerialError) -> Int32 {
        guard let speed = Self.speed(baud) else { throw .system(path: path, operation: "set \(baud) baud on", Errno(EINVAL)) }
        // O_NONBLOCK: neither the open (no carrier) nor any write ever waits.
        let fd = Glibc.open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = Errno.current
            switch e {
            case .noEntry: throw .absent(path: path)
            case .accessDenied, .permissionDenied: throw .permission(path: path)
            default: throw .system(path: path, operation: "open", e)
            }
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let e = Errno.current
            Glibc.close(fd)
            if e == Errno(ENOTTY) || e == Errno(EINVAL) { throw .notASerialPort(path: path) }
            throw .system(path: path, operation: "read the settings of", e)
        }
        cfmakeraw(&settings)
        // 8 data bits, no parity, 1 stop bit; CLOCAL: ignore the modem lines; no RTS/CTS, no XON/XOFF.
        settings.c_cflag &= ~(tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CSIZE) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        settings.c_oflag &= ~tcflag_t(OPOST)
        cfsetospeed(&settings, speed)
        cfsetispeed(&settings, speed)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let e = Errno.current
            Glibc.close(fd)
            throw .system(path: path, operation: "set \(baud) baud 8N1 on", e)
        }
        // Whatever an earlier writer left queued would be old headings.
        tcflush(fd, TCOFLUSH)
        return fd
    }

    public func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SendOutcome {
        guard !bytes.isEmpty else { return .sent(0) }
        while true {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return .sent(n) }
            let e = errno
            if e == EINTR { continue }
            return e == EAGAIN || e == EWOULDBLOCK ? .wouldBlock : .failed(e)
        }
    }

    public func pending(_ fd: Int32) -> Int? {
        var count: Int32 = 0
        return ioctl(fd, UInt(TIOCOUTQ), &count) == 0 ? Int(count) : nil
    }

    public func close(_ fd: Int32) { Glibc.close(fd) }
}
