import Glibc
import Platform

/// A consumer of a byte stream on a manual clock, for tests of what must never hold the live loop:
/// it takes everything, or stalls (takes nothing, as a reader that stopped reading) over a span of
/// time, or takes `capacity` bytes at most per call, or fails for good after `failsAfterBytes` (as a
/// full disk: ENOSPC, or a reader gone: EPIPE), taking part of the bytes first as a disk would.
///
/// ```swift
/// let out = ScriptedChannel(clock: clock)
/// out.stalls(from: 2, until: .infinity)
/// runtime.outputChannel = out
/// ```
public final class ScriptedChannel: ByteChannel {
    public let name: String
    let clock: ManualClock
    /// Everything taken, in order.
    public private(set) var received: [UInt8] = []
    /// Calls to `send`.
    public private(set) var sends = 0
    private var stalls: [(from: Double, until: Double)] = []
    /// Bytes taken per call at most.
    public var capacity: Int = .max
    /// Fails with `failure` once this many bytes have been taken.
    public var failsAfterBytes: Int?
    public var failure: Int32 = ENOSPC

    public init(clock: ManualClock, name: String = "standard output") {
        self.clock = clock
        self.name = name
    }

    /// Takes nothing from `from` until `until` (monotonic seconds on the clock).
    public func stalls(from: Double, until: Double) { stalls.append((from, until)) }

    public var text: String { String(decoding: received, as: UTF8.self) }
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    public func send(_ bytes: ArraySlice<UInt8>) -> SendOutcome {
        sends += 1
        let now = clock.now()
        if let limit = failsAfterBytes, received.count >= limit { return .failed(failure) }
        if stalls.contains(where: { now >= $0.from && now < $0.until }) { return .wouldBlock }
        var n = min(bytes.count, capacity)
        if let limit = failsAfterBytes { n = min(n, limit - received.count) }
        received += bytes.prefix(n)
        return .sent(n)
    }

    /// True to stand for a regular file, whose last bytes a failed write can take back off
    /// (`takeBack`); a pipe's reader has them already.
    public var isFile = false

    public func takeBack(_ count: Int) {
        guard isFile else { return }
        received.removeLast(min(count, received.count))
    }

    public func waitWritable(seconds: Double) -> Bool {
        let now = clock.now()
        return !stalls.contains { now >= $0.from && now < $0.until }
    }
}
