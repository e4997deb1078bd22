import Foundation

/// The root of the package under test (three levels above this file).
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The built `lodestone` binary: $LODESTONE_BIN, else .build/debug/lodestone in the package.
public let lodestoneBinaryPath: String = {
    if let path = ProcessInfo.processInfo.environment["LODESTONE_BIN"] { return path }
    return packageRoot.appendingPathComponent(".build/debug/lodestone").path
}()

/// The outcome of running the binary.
public struct RunResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var timedOut: Bool

    public init(status: Int32, stdout: String, stderr: String, timedOut: Bool = false) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
    }
}

/// Runs `lodestone` with arguments, optional stdin, and a timeout after which it gets SIGTERM
/// (then SIGKILL one second later). Output is collected in full.
public func runLodestone(_ arguments: [String], stdin: String? = nil, timeout: Double = 20,
                  environment: [String: String] = [:], signalAfter: Double? = nil) throws -> RunResult {
    try runProgram(lodestoneBinaryPath, arguments, stdin: stdin, timeout: timeout, environment: environment,
                   signalAfter: signalAfter)
}

/// The full path of a program found on $PATH (or in /usr/bin, /bin), nil when it is not installed.
public func executablePath(named name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin"])
        .map { $0 + "/" + name }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs any program as `runLodestone` runs the binary (a `PipedChild`: a clean signal mask and
/// default signal actions, its own process group).
public func runProgram(_ path: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 20,
                       environment: [String: String] = [:], signalAfter: Double? = nil) throws -> RunResult {
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    let child = try PipedChild(path, arguments, environment: env, stdin: Data((stdin ?? "").utf8))
    let start = Date()
    var timedOut = false
    var signalled = false
    while child.isRunning {
        let elapsed = Date().timeIntervalSince(start)
        if let after = signalAfter, !signalled, elapsed >= after {
            kill(child.pid, SIGTERM)
            signalled = true
        }
        if elapsed > timeout {
            timedOut = true
            kill(child.pid, SIGTERM)
            Thread.sleep(forTimeInterval: 1)
            if child.isRunning { kill(-child.pid, SIGKILL) }
            break
        }
        Thread.sleep(forTimeInterval: 0.02)
    }
    let status = child.wait()
    return RunResult(status: status, stdout: child.stdout, stderr: child.stderr, timedOut: timedOut)
}

/// Thread-safe byte accumulator for pipe handlers.
public final class LockedData: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    public init() {}
    public func append(_ d: Data) { lock.lock(); data.append(d); lock.unlock() }
    public var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// One value shared with a thread of the test's own, behind a lock.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    public init(_ value: Value) { self.value = value }
    public func set(_ v: Value) { lock.lock(); value = v; lock.unlock() }
    public func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
}

/// A scratch folder for one test, removed by the caller.
public func makeTemporaryFolder(_ name: String = "lodestone-test") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
