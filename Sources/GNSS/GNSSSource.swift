import Platform

/// Where a source of fixes stands.
public enum GNSSState: Sendable, Equatable, CustomStringConvertible {
    /// Trying to reach gpsd (first attempt or a retry).
    case connecting
    /// Connected; fixes flow (or none has been reported yet).
    case connected
    /// Connected, but the receiver reports no position (or gpsd has no receiver).
    case waitingForFix
    /// Connected, positions arrive, but their time has not moved for seconds (Unix seconds): the
    /// receiver's clock is stuck, so its fixes are not current and are not used.
    case timeFrozen(Double)
    /// Not connected, with the reason; the source keeps retrying by itself.
    case disconnected(GNSSError)

    /// "the receiver's time is stuck at 2026-03-01T10:00:01Z: …", for every display.
    static func frozenMessage(_ time: Double) -> String {
        "the receiver's time is stuck at \(ISO8601.format(time)) while positions keep coming: its fixes are not "
            + "current and are not used; check the receiver (or whether gpsd is replaying a log)"
    }

    /// A short line for a status display.
    public var description: String {
        switch self {
        case .connecting: return "connecting to gpsd"
        case .connected: return "connected"
        case .waitingForFix: return "connected, waiting for a fix"
        case .timeFrozen(let time): return "connected, but " + Self.frozenMessage(time)
        case .disconnected(let why): return "disconnected: " + why.message
        }
    }

    /// True while a session with gpsd is open.
    public var isConnected: Bool {
        switch self {
        case .connected, .waitingForFix, .timeFrozen: return true
        case .connecting, .disconnected: return false
        }
    }
}

/// A fix and the monotonic time (seconds) it reached this process.
public struct ReceivedFix: Sendable, Equatable {
    public var fix: Fix
    /// `Clock.monotonic()` when the fix arrived.
    public var receivedAt: Double

    public init(fix: Fix, receivedAt: Double) {
        self.fix = fix
        self.receivedAt = receivedAt
    }

    /// True when the fix is older than `maxAge` seconds at monotonic time `now`.
    public func isStale(now: Double, maxAge: Double = GNSSUpdate.defaultMaxAge) -> Bool {
        now - receivedAt > maxAge
    }
}

/// What a consumer learns from one `GNSSSource.take(now:)`.
public struct GNSSUpdate: Sendable, Equatable {
    /// A fix older than this (seconds) is stale: never shown as current.
    public static let defaultMaxAge = 3.0

    /// New fixes since the previous call, oldest first, one per epoch.
    public var fixes: [ReceivedFix]
    /// The state now.
    public var state: GNSSState
    /// Every state entered since the previous call, in order (empty when unchanged).
    public var stateChanges: [GNSSState]
    /// The newest fix ever received (possibly stale).
    public var latest: ReceivedFix?
    /// The receivers gpsd last listed, when it has said.
    public var devices: [String]?
    /// TPV reports without a position seen so far (the receiver is searching).
    public var reportsWithoutFix: Int
    /// True when `latest` is older than `defaultMaxAge` at the time of the call.
    public var latestIsStale: Bool

    public init(fixes: [ReceivedFix] = [], state: GNSSState = .connecting, stateChanges: [GNSSState] = [],
                latest: ReceivedFix? = nil, devices: [String]? = nil, reportsWithoutFix: Int = 0,
                latestIsStale: Bool = false) {
        self.fixes = fixes
        self.state = state
        self.stateChanges = stateChanges
        self.latest = latest
        self.devices = devices
        self.reportsWithoutFix = reportsWithoutFix
        self.latestIsStale = latestIsStale
    }

    /// The newest fix when it is fresh; nil when there is none or it is stale.
    public var current: ReceivedFix? { latestIsStale ? nil : latest }
}

/// Anything that produces fixes: the gpsd client or the simulator. Sources run on their own (a
/// thread, or the clock) and never block the caller.
///
/// ```swift
/// let source: any GNSSSource = GpsdClient(address: .default)
/// source.start()
/// defer { source.stop() }
/// let update = source.take(now: Clock.monotonic())
/// for received in update.fixes { show(received.fix) }
/// ```
public protocol GNSSSource: AnyObject, Sendable {
    /// For messages: "gpsd at 127.0.0.1:2947", "the simulator".
    var name: String { get }
    /// Starts producing fixes. Calling it twice has no further effect.
    func start()
    /// Stops; returns promptly.
    func stop()
    /// Takes what arrived since the last call. Never blocks.
    func take(now: Double) -> GNSSUpdate
}
