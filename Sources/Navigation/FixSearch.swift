import GNSS

/// Waits for the first fix that passes a quality gate, and remembers what it saw on the way, so
/// that a timeout can say why: no gpsd, no receiver, no fix, or fixes too poor (with the best
/// error seen).
///
/// ```swift
/// var search = FixSearch(gate: QualityGate(maximumHorizontalError: 10))
/// while Clock.monotonic() < deadline {
///     if let fix = search.observe(source.take(now: Clock.monotonic())) { return show(fix) }
/// }
/// throw search.failure(afterSeconds: 30)
/// ```
public struct FixSearch: Sendable {
    public var gate: QualityGate
    /// A session with gpsd was open at some point.
    public private(set) var connected = false
    /// The most recent reason the source gave for being disconnected.
    public private(set) var lastError: GNSSError?
    /// The stuck fix time, when gpsd reported one.
    public private(set) var frozenTime: Double?
    /// The receivers gpsd listed, when it said.
    public private(set) var devices: [String]?
    /// Reports without a position seen.
    public private(set) var reportsWithoutFix = 0
    /// Position fixes seen (passing the gate or not).
    public private(set) var positionFixes = 0
    /// The smallest horizontal error seen among position fixes, metres.
    public private(set) var bestHorizontalError: Double?
    /// Position fixes rejected only for their mode (2D where 3D was required).
    public private(set) var rejectedForMode = 0

    public init(gate: QualityGate = QualityGate()) {
        self.gate = gate
    }

    /// Takes in one update; returns the first new fix that passes the gate, if any. Fixes in an
    /// update are fresh by construction (they just arrived).
    public mutating func observe(_ update: GNSSUpdate) -> Fix? {
        for state in update.stateChanges + [update.state] { note(state) }
        if let devices = update.devices { self.devices = devices }
        reportsWithoutFix = max(reportsWithoutFix, update.reportsWithoutFix)
        var found: Fix?
        for received in update.fixes {
            let fix = received.fix
            guard fix.hasPosition else { continue }
            positionFixes += 1
            if let e = fix.horizontalError { bestHorizontalError = min(bestHorizontalError ?? e, e) }
            switch gate.rejection(of: fix) {
            case nil: if found == nil { found = fix }
            case .modeTooLow: rejectedForMode += 1
            default: break
            }
        }
        return found
    }

    /// Why no fix was found in `seconds`.
    public func failure(afterSeconds seconds: Double) -> FixSearchFailure {
        if !connected { return .unreachable(lastError ?? .cannotConnect(.default), seconds: seconds) }
        if let frozenTime { return .timeFrozen(seconds: seconds, time: frozenTime) }
        if positionFixes == 0 {
            if let devices, devices.isEmpty { return .noReceiver(seconds: seconds) }
            return .noFix(seconds: seconds, reportsWithoutFix: reportsWithoutFix)
        }
        return .fixesTooPoor(seconds: seconds, fixes: positionFixes, bestHorizontalError: bestHorizontalError,
                             onlyModeTooLow: rejectedForMode == positionFixes, gate: gate)
    }

    private mutating func note(_ state: GNSSState) {
        switch state {
        case .connected, .waitingForFix: connected = true
        case .timeFrozen(let time):
            connected = true
            frozenTime = time
        case .disconnected(let error): lastError = error
        case .connecting: break
        }
    }
}

/// Why `FixSearch` found no usable fix in time. Each message says what to do.
public enum FixSearchFailure: Error, Sendable, Equatable {
    /// gpsd could not be reached at all.
    case unreachable(GNSSError, seconds: Double)
    /// gpsd runs but lists no receiver.
    case noReceiver(seconds: Double)
    /// gpsd runs, but the receiver reported no position.
    case noFix(seconds: Double, reportsWithoutFix: Int)
    /// Positions came, but their time was stuck (see `GNSSState.timeFrozen`).
    case timeFrozen(seconds: Double, time: Double)
    /// Fixes came, but none passed the gate.
    case fixesTooPoor(seconds: Double, fixes: Int, bestHorizontalError: Double?, onlyModeTooLow: Bool, gate: QualityGate)

    public var message: String {
        switch self {
        case .unreachable(let error, let s):
            return "no fix within \(wholeNumber(s)) s: " + error.message
        case .noReceiver(let s):
            return "no fix within \(wholeNumber(s)) s: gpsd is running but has no GPS receiver; "
                + "plug one in and check 'gpspipe -w -n 5' (and DEVICES= in /etc/default/gpsd)"
        case .noFix(let s, let count):
            let seen = count > 0 ? " (\(count) reports without a position)" : " (no position reports at all)"
            return "no fix within \(wholeNumber(s)) s: gpsd is running but the receiver has no fix yet\(seen); "
                + "give it a clear view of the sky and wait longer (--timeout); a cold start can take minutes"
        case .timeFrozen(let s, let time):
            return "no fix within \(wholeNumber(s)) s: " + GNSSState.timeFrozen(time).description
        case .fixesTooPoor(let s, let count, let best, let onlyMode, let gate):
            var text = "no fix within \(wholeNumber(s)) s was good enough: \(count) fix\(count == 1 ? "" : "es") seen"
            if onlyMode {
                text += ", all \(gate.minimumMode == .threeD ? "2D" : "without a position") where \(gate.minimumMode) "
                    + "is required; wait longer (--timeout) or allow --min-mode 2d"
                return text
            }
            if let best { text += ", the best with a horizontal error of \(decimalText(best, decimals: 1)) m" }
            else { text += ", none with an error estimate" }
            if let limit = gate.maximumHorizontalError { text += " (limit --accuracy \(decimalText(limit, decimals: 1)) m)" }
            return text + "; move to open sky, wait longer (--timeout), or relax --accuracy"
        }
    }
}
