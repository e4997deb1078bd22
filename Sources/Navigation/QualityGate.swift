import GNSS

/// Which fixes are good enough to use: a minimum fix mode and, optionally, a largest horizontal
/// error (`eph`, or the larger of `epx` and `epy` when gpsd sends no `eph`).
///
/// ```swift
/// let gate = QualityGate(minimumMode: .threeD, maximumHorizontalError: 10)
/// if let why = gate.rejection(of: fix) { print("ignored:", why) }
/// ```
public struct QualityGate: Sendable, Equatable {
    /// Fixes of a lower mode are ignored (`--min-mode`).
    public var minimumMode: FixMode
    /// Fixes with a larger horizontal error, in metres, are ignored (`--accuracy`); nil accepts any.
    /// When a limit is set, fixes that carry no error estimate at all are ignored too.
    public var maximumHorizontalError: Double?

    public init(minimumMode: FixMode = .twoD, maximumHorizontalError: Double? = nil) {
        self.minimumMode = max(minimumMode, .twoD)
        self.maximumHorizontalError = maximumHorizontalError
    }

    /// Why the fix is not good enough, or nil when it passes.
    public func rejection(of fix: Fix) -> GateRejection? {
        guard fix.hasPosition else { return .noPosition }
        guard fix.mode >= minimumMode else { return .modeTooLow(fix.mode) }
        if let limit = maximumHorizontalError {
            guard let error = fix.horizontalError else { return .accuracyUnknown }
            guard error <= limit else { return .accuracyTooPoor(error) }
        }
        return nil
    }

    /// True when the fix passes.
    public func accepts(_ fix: Fix) -> Bool { rejection(of: fix) == nil }
}

/// Why a fix did not pass a `QualityGate`.
public enum GateRejection: Sendable, Equatable, CustomStringConvertible {
    /// The report carries no position.
    case noPosition
    /// A 2D fix where 3D is required.
    case modeTooLow(FixMode)
    /// An accuracy limit is set but the fix gives no error estimate.
    case accuracyUnknown
    /// The fix's horizontal error (metres) is above the limit.
    case accuracyTooPoor(Double)

    public var description: String {
        switch self {
        case .noPosition: return "no position"
        case .modeTooLow(let mode): return "only a \(mode) fix"
        case .accuracyUnknown: return "no error estimate"
        case .accuracyTooPoor(let error): return "horizontal error \(wholeNumber(error)) m"
        }
    }
}

/// A non-negative number rounded to a whole number, as text ("12").
func wholeNumber(_ value: Double) -> String {
    guard value.isFinite else { return "?" }
    let rounded = value.rounded()
    guard abs(rounded) < 1e15 else { return "∞" }
    return String(Int64(rounded))
}
