import CPosix
import Glibc

/// The system calls the file layer (`Files`, `AtomicFile`) makes, behind one protocol so that tests
/// can record the exact calls (flags included) and plant a file at the moment a name is chosen.
/// Each call returns what the system call returns and leaves `errno` as it set it.
public protocol FileSystemCalls: Sendable {
    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    func fsync(_ fd: Int32) -> Int32
    func close(_ fd: Int32) -> Int32
    func rename(_ from: String, _ to: String) -> Int32
    func unlink(_ path: String) -> Int32
    /// `lstat`: the entry itself (a symbolic link is not followed); nil when there is none.
    func entry(_ path: String) -> stat?
    /// Unpredictable bytes (for temporary names nobody can guess ahead).
    func randomBytes(_ count: Int) -> [UInt8]
}

/// The real calls.
public struct SystemFileCalls: FileSystemCalls {
    public init() {}
    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(path, flags, mode) }
    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    public func fsync(_ fd: Int32) -> Int32 { Glibc.fsync(fd) }
    public func close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    public func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    public func unlink(_ path: String) -> Int32 { Glibc.unlink(path) }
    public func entry(_ path: String) -> stat? {
        var st = stat()
        return lstat(path, &st) == 0 ? st : nil
    }
    public func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        if bytes.withUnsafeMutableBytes({ lodestone_random_bytes($0.baseAddress, $0.count) }) != 0 {
            // No kernel randomness at all (never on Linux ≥ 3.17): the clock's nanoseconds and the
            // process id still make a name; O_EXCL keeps a planted one from being used either way.
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            var seed = UInt64(bitPattern: Int64(ts.tv_nsec)) ^ (UInt64(getpid()) << 32) ^ UInt64(bitPattern: Int64(ts.tv_sec))
            for i in bytes.indices {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[i] = UInt8(truncatingIfNeeded: seed >> 56)
            }
        }
        return bytes
    }
}

extension Files {
    /// True when a folder is sticky and writable by everyone (like /tmp): others can create names in
    /// it, so a name there that is a symbolic link is never followed when a file is opened.
    public static func isSharedFolder(_ folder: String) -> Bool {
        var st = stat()
        guard stat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return false }
        return st.st_mode & S_ISVTX != 0 && st.st_mode & S_IWOTH != 0
    }
}
