import Calibration
import Linear
import Outputs
import Platform

extension RefinementReport {
    /// The output formats' view (JSON under "refine").
    public var summary: RefinementSummary {
        RefinementSummary(state: state.rawValue, change: profileChange.array, sigma: horizontalUncertainty,
                          offset: refinedProfileOffset?.array, softIronPercent: softIronChange.map { 100 * $0 })
    }

    /// One line for stderr and the dashboard: the state, the change from the profile and its 1σ.
    public var line: String {
        let change = "(\(fixed(profileChange.x, 2)), \(fixed(profileChange.y, 2)), \(fixed(profileChange.z, 2))) µT"
        switch state {
        case .waitingForReference:
            return "refine: waiting for a GNSS fix (the WMM's field there is the reference)"
        case .collecting:
            return "refine: collecting (turns and circles pin the offset down; a straight leg does not)"
        case .converged:
            let soft = softIronChange.map { c in
                "; soft iron refined (up to \(fixed(100 * c, 1)) % of the field, ±\(fixed(softIronUncertainty ?? .nan, 2)) µT)"
            } ?? ""
            return "refine: hard-iron offset changed by \(change) from the profile, |Δ| \(fixed(profileChange.norm, 2)) µT, "
                + "±\(fixed(horizontalUncertainty ?? .nan, 2)) µT horizontal, ±\(fixed(uncertainty?.z ?? .nan, 2)) µT vertical (1σ)" + soft
        case .changeSuspected:
            let by = suspected.map { fixed(($0 - offset).norm, 1) } ?? "?"
            return "refine: the calibration seems to have changed by \(by) µT; confirming before it is adopted"
        }
    }
}

/// Says the refinement's progress on stderr: when it converges, suspects a change and adopts one,
/// never more than once a minute otherwise.
public struct RefinementNarrator: Sendable {
    private var lastState: RefinementState?
    private var lastAdoptions = 0
    private var lastSaid = -Double.infinity

    public init() {}

    /// The line to say now, if any.
    public mutating func update(_ report: RefinementReport?, monotonic: Double) -> String? {
        guard let report else { return nil }
        let adoptions = report.adoptions + report.softIronAdoptions
        let news = report.state != lastState || adoptions != lastAdoptions
        guard news || (report.state == .converged && monotonic - lastSaid >= 300) else { return nil }
        // A state that flickers back and forth is said at most every 10 s (the state then, once the
        // 10 s have passed: a change held back is not lost).
        guard monotonic - lastSaid >= 10 || adoptions != lastAdoptions else { return nil }
        let adopted = adoptions != lastAdoptions
        lastState = report.state; lastAdoptions = adoptions; lastSaid = monotonic
        return (adopted ? "adopted a changed calibration: " : "") + report.line
    }
}

extension HeadingPipeline {
    /// Saves the refined profile on a clean exit (atomic), keeping the file as it was beside it
    /// (FILE.previous), when the refinement converged on an offset that differs from the profile's by more
    /// than twice its uncertainty (horizontally or vertically). Says what it did.
    public func saveRefinedProfile(to store: ProfileStore, runtime: Runtime) throws {
        guard let report = refinementReport else { return }
        guard report.uncertainty != nil, report.state == .converged else {
            runtime.say("refine: not converged (\(report.state.rawValue)); the profile was left as it is")
            return
        }
        // Significant when the horizontal change or the vertical one is past twice its own 1σ (body axes: the
        // vertical offset is known only as well as the reference dip, often far less well).
        let sigma = report.horizontalUncertainty ?? 0, vertical = report.uncertainty?.z ?? 0
        let horizontalChange = (report.offset.x * report.offset.x + report.offset.y * report.offset.y).squareRoot()
        let significant = horizontalChange > max(0.1, 2 * sigma) || abs(report.offset.z) > max(0.1, 2 * vertical)
        guard significant || report.softIron != nil, let refined = refinedProfile() else {
            runtime.say("refine: the profile agrees with the data (within ±\(fixed(sigma, 2)) µT horizontal, ±\(fixed(vertical, 2)) µT "
                        + "vertical); left as it is")
            return
        }
        try store.saveKeepingPrevious(refined)
        runtime.say("refine: saved the refined offset to \(abbreviatingHome(store.path, home: runtime.environment.value("HOME")))"
                    + " (the previous profile is in \(abbreviatingHome(store.previousPath, home: runtime.environment.value("HOME"))))")
    }
}

extension ProfileStore {
    /// Where `saveKeepingPrevious` keeps the file as it was.
    public var previousPath: String { path + ".previous" }

    /// Saves `profile` like `save(_:)`, first copying the file as it is to FILE.previous (atomically too).
    public func saveKeepingPrevious(_ profile: CalibrationProfile) throws(ProfileStoreError) {
        try refuseStandardInput()
        let old: String?
        do { old = try Files.readTextIfPresent(path) } catch { throw .unreadable(path: path, error.message) }
        if let old {
            do { try Files.writeAtomically(previousPath, contents: old) } catch {
                throw .unwritable(path: previousPath, error.message)
            }
        }
        try save(profile)
    }
}

/// The refinement as a log row's flags (`log --refine`, `watch --log --refine`), written on the rows
/// where it changed (the first row, and each new state, offset, 1σ or soft iron), so every row's
/// refinement is the last one written above it: `refine=DX/DY/DZ/SIGMA` (the offset's change from the
/// profile and its horizontal 1σ, µT, to 0.01), `refineState=STATE` (waiting, collecting,
/// converged, change_suspected) and, once the soft iron is refined, `refineSoftIron=PERCENT` (its
/// largest change of the field). Every row with a refined calibration applied also carries the
/// estimate's own `refined` flag, and `calibrationChanged` while a change is being confirmed.
public struct RefinementFlags: Sendable, Equatable {
    public var words: [String]

    public init(_ report: RefinementReport) {
        let c = report.profileChange
        let sigma = report.horizontalUncertainty.map { fixed($0, 2) } ?? "nan"
        words = ["refineState=" + report.state.rawValue,
                 "refine=\(fixed(c.x, 2))/\(fixed(c.y, 2))/\(fixed(c.z, 2))/\(sigma)"]
        if let soft = report.softIronChange { words.append("refineSoftIron=" + fixed(100 * soft, 2)) }
    }
}
