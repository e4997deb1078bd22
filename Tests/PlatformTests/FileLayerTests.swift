import Foundation
import Glibc
import Platform
import Testing

/// The system calls, recorded, with fixed "random" bytes so a test can plant a file at the very
/// name the layer will choose.
final class RecordingFileCalls: FileSystemCalls, @unchecked Sendable {
    private let lock = NSLock()
    private var _trace: [String] = []
    private var _opens: [(path: String, flags: Int32)] = []
    private var randomQueue: [[UInt8]]
    let system = SystemFileCalls()

    init(random: [[UInt8]] = []) { randomQueue = random }

    var trace: [String] { lock.lock(); defer { lock.unlock() }; return _trace }
    var opens: [(path: String, flags: Int32)] { lock.lock(); defer { lock.unlock() }; return _opens }
    private func note(_ s: String) { lock.lock(); _trace.append(s); lock.unlock() }

    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        lock.lock(); _opens.append((path, flags)); lock.unlock()
        let fd = system.open(path, flags, mode)
        note((flags & O_DIRECTORY != 0 ? "openFolder " : "open ") + (fd >= 0 ? "ok" : "failed \(errno)"))
        return fd
    }
    /// When set, every write fails as on a full disk.
    var failWrites = false
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        note("write")
        if failWrites { errno = ENOSPC; return -1 }
        return system.write(fd, bytes)
    }
    func fsync(_ fd: Int32) -> Int32 { note("fsync"); return system.fsync(fd) }
    func close(_ fd: Int32) -> Int32 { note("close"); return system.close(fd) }
    func rename(_ from: String, _ to: String) -> Int32 { note("rename"); return system.rename(from, to) }
    func unlink(_ path: String) -> Int32 { note("unlink"); return system.unlink(path) }
    func entry(_ path: String) -> stat? { system.entry(path) }
    func randomBytes(_ count: Int) -> [UInt8] {
        lock.lock(); defer { lock.unlock() }
        if randomQueue.isEmpty { return system.randomBytes(count) }
        return randomQueue.removeFirst()
    }
}

/// A folder like /tmp: sticky and writable by everyone.
func makeSharedFolder(_ name: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    #expect(chmod(path, 0o1777) == 0)
    return path
}

func readFile(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

func isSymbolicLink(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
}

/// Reading a small file given by name (a password file, a PEM file) never waits on a FIFO that no
/// writer holds: under a command's blocked signals that open could not be ended by SIGTERM.
@Suite("the file layer: reads that never wait")
struct FileReadTests {
    @Test("a FIFO without a writer reads as empty at once; a device is cut at the limit")
    func fifoWithoutAWriterAndADevice() throws {
        let folder = NSTemporaryDirectory() + "lodestone-fifo-read-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/password.fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<Result<[UInt8], FileError>?>(nil)
        Thread {
            do throws(FileError) { result.set(.success(try Files.readBytes(path, limit: 1024))) } catch { result.set(.failure(error)) }
            done.signal()
        }.start()
        let ended = done.wait(timeout: .now() + 5) == .success
        if !ended {
            // Let the stuck open go, so the test ends either way.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            done.wait()
        }
        #expect(ended, "the read waited for a writer")
        #expect(result.get().flatMap { try? $0.get() } == [])
        #expect(throws: FileError.read(path: "/dev/zero", Errno(EFBIG))) { try Files.readBytes("/dev/zero", limit: 1024) }
    }
}

final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ v: Value) { lock.withLock { value = v } }
    func get() -> Value { lock.withLock { value } }
}

@Suite("the file layer: atomic writes and appends that a planted link cannot turn")
struct FileLayerTests {
    @Test func anAtomicWriteCreatesAnUnguessableNewFileSyncsItRenamesAndSyncsTheFolder() throws {
        let dir = try makeSharedFolder("atomic"); defer { try? FileManager.default.removeItem(atPath: dir) }
        let calls = RecordingFileCalls()
        try Files.writeAtomically(dir + "/profile.json", contents: "{}\n", calls: calls)
        #expect(readFile(dir + "/profile.json") == "{}\n")
        let first = try #require(calls.opens.first)
        #expect(first.flags & (O_CREAT | O_EXCL | O_NOFOLLOW) == O_CREAT | O_EXCL | O_NOFOLLOW)
        #expect(first.flags & O_TRUNC == 0)
        // In the target's folder, with 16 hexadecimal digits nobody can guess ahead.
        #expect(first.path.hasPrefix(dir + "/profile.json.tmp-"))
        let suffix = first.path.dropFirst((dir + "/profile.json.tmp-").count)
        #expect(suffix.count == 16 && suffix.allSatisfy(\.isHexDigit))
        #expect(calls.trace == ["open ok", "write", "fsync", "close", "rename", "openFolder ok", "fsync", "close"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["profile.json"])
    }

    @Test func aWriteThatFailsHalfWayLeavesTheOldFileAndNoTemporary() throws {
        let dir = try makeSharedFolder("full"); defer { try? FileManager.default.removeItem(atPath: dir) }
        try Files.writeAtomically(dir + "/calibration.json", contents: "old\n")
        let calls = RecordingFileCalls()
        calls.failWrites = true
        #expect(throws: FileError.write(path: dir + "/calibration.json", Errno(ENOSPC))) {
            try Files.writeAtomically(dir + "/calibration.json", contents: "new\n", calls: calls)
        }
        #expect(readFile(dir + "/calibration.json") == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["calibration.json"])
        #expect(!calls.trace.contains("rename"))
    }

    @Test func twoWritesNeverUseTheSameTemporaryName() throws {
        let dir = try makeSharedFolder("names"); defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = RecordingFileCalls(), b = RecordingFileCalls()
        try Files.writeAtomically(dir + "/x", contents: "1", calls: a)
        try Files.writeAtomically(dir + "/x", contents: "2", calls: b)
        #expect(a.opens[0].path != b.opens[0].path)
        #expect(!a.opens[0].path.contains(".tmp-\(getpid())"))
    }

    @Test func aLinkPlantedAtTheChosenTemporaryNameIsNeverOpenedAndItsTargetKeepsItsBytes() throws {
        let dir = try makeSharedFolder("planted"); defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let bytes: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3]
        #expect(symlink(victim, dir + "/out.svg.tmp-deadbeef00010203") == 0)
        let calls = RecordingFileCalls(random: [bytes])
        try Files.writeAtomically(dir + "/out.svg", contents: "<svg/>\n", calls: calls)
        #expect(readFile(victim) == "precious\n")
        #expect(readFile(dir + "/out.svg") == "<svg/>\n")
        #expect(calls.trace.first == "open failed \(EEXIST)", "the planted name is refused, a fresh one taken")
        #expect(isSymbolicLink(dir + "/out.svg.tmp-deadbeef00010203"))
    }

    @Test func theOldPredictableNameIsNotUsed() throws {
        let dir = try makeSharedFolder("pid"); defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, dir + "/calibration.json.tmp-\(getpid())") == 0)
        try Files.writeAtomically(dir + "/calibration.json", contents: "{}\n")
        #expect(readFile(victim) == "precious\n")
        #expect(readFile(dir + "/calibration.json") == "{}\n")
    }

    @Test func aLinkAtTheTargetIsReplacedAndItsTargetNeverWritten() throws {
        let dir = try makeSharedFolder("target"); defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, dir + "/track.gpx") == 0)
        let out = try AtomicFile(path: dir + "/track.gpx")
        out.write("<gpx/>\n")
        try out.commit()
        #expect(readFile(victim) == "precious\n")
        #expect(!isSymbolicLink(dir + "/track.gpx"))
        #expect(readFile(dir + "/track.gpx") == "<gpx/>\n")
    }

    @Test func anUncommittedFileLeavesNothingBehind() throws {
        let dir = try makeSharedFolder("dropped"); defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let out = try AtomicFile(path: dir + "/a.svg")
            out.write("half")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func appendingInASharedFolderRefusesALinkAndOutsideOneFollowsTheUsersOwn() throws {
        let shared = try makeSharedFolder("append"); defer { try? FileManager.default.removeItem(atPath: shared) }
        let victim = shared + "/victim"
        try "".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, shared + "/heading.csv") == 0)
        #expect(Files.isSharedFolder(shared))
        let calls = RecordingFileCalls()
        #expect(throws: FileError.linkRefused(path: shared + "/heading.csv", folder: shared)) {
            _ = try Files.openForAppend(shared + "/heading.csv", calls: calls)
        }
        #expect(calls.opens.first.map { $0.flags & O_NOFOLLOW != 0 } == true)
        #expect(FileError.linkRefused(path: "p", folder: "f").exitCode == .ioError)
        // A folder of one's own: a link there is the owner's choice and is followed.
        let own = shared + "/own"
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: false)
        #expect(chmod(own, 0o755) == 0)
        #expect(!Files.isSharedFolder(own))
        #expect(symlink(victim, own + "/heading.csv") == 0)
        let fd = try Files.openForAppend(own + "/heading.csv")
        close(fd)
    }

    @Test func aNewFileIsNeverOpenedThroughALink() throws {
        let dir = try makeSharedFolder("new"); defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(symlink(dir + "/nowhere", dir + "/raw.csv") == 0)
        #expect(throws: FileError.open(path: dir + "/raw.csv", Errno(EEXIST))) {
            _ = try Files.openForAppend(dir + "/raw.csv", mode: .createNew)
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
    }

    @Test func replacingWithANewFileReplacesALinkItself() throws {
        let dir = try makeSharedFolder("replace"); defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, dir + "/log.csv") == 0)
        let fd = try Files.replaceWithNewFile(dir + "/log.csv")
        try Files.writeAll(fd, Array("new\n".utf8), path: dir + "/log.csv")
        close(fd)
        #expect(readFile(victim) == "precious\n")
        #expect(!isSymbolicLink(dir + "/log.csv"))
        #expect(readFile(dir + "/log.csv") == "new\n")
    }

    @Test func aUsersFileThatIsNotARegularFileIsRefusedWithoutWaitingOnIt() throws {
        let dir = try makeSharedFolder("fifo"); defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/places.csv", 0o644) == 0)
        // A FIFO with no writer would block a plain open for ever.
        #expect(throws: FileError.notRegular(path: dir + "/places.csv")) { _ = try Files.readTextIfPresent(dir + "/places.csv") }
        #expect(throws: FileError.notRegular(path: "/dev/zero")) { _ = try Files.readTextIfPresent("/dev/zero") }
        #expect(throws: FileError.notRegular(path: dir)) { _ = try Files.readTextIfPresent(dir) }
        #expect(FileError.notRegular(path: "x").exitCode == .dataError)
        #expect(try Files.readTextIfPresent(dir + "/missing") == nil)
    }
}
