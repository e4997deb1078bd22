import Calibration
import Outputs

extension LiveSession {
    /// `--refine` on a clean exit: saves the refined offset into the sensor's profile (atomic, the file as
    /// it was kept as FILE.previous) when the refinement converged on a changed one; says what it did.
    /// Does nothing without `--refine`.
    public func saveRefinement(explicitPath: String?, runtime: Runtime) throws {
        guard let report = pipeline.refinementReport else { return }
        runtime.say(report.line)
        guard pipeline.profile != nil else {
            runtime.say("refine: nothing saved: there is no calibration profile to refine (run 'lodestone calibrate')")
            return
        }
        try pipeline.saveRefinedProfile(to: try ProfileStore(path: explicitPath, configFolder: runtime.environment.configFolder),
                                        runtime: runtime)
    }

    /// The refinement as the output formats see it (JSON "refine"), nil without `--refine`.
    public var refinementSummary: RefinementSummary? { pipeline.refinementReport?.summary }
}
