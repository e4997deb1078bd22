import Testing
import Linear
import Calibration
import Simulation
@testable import Session

/// The refinement's goals on simulated drives and sails whose truth is known, through the pipeline
/// `watch` and `heading --from-file` build.
@Suite("Background refinement on simulated drives")
struct RefinementTrialTests {
    static let step = FieldChange(field: Vector3(6, -5, 3), start: 300)
    static let transient = FieldChange(field: Vector3(9, -12, 0), start: 720, end: 740, rampSeconds: 2)

    @Test func aDriveWithAStepAndATransient() {
        // The live case: the receiver's ground track reaches the attitude filter once a second.
        var trial = RefinementTrial(scenario: .car(), duration: 1200, changes: [Self.step, Self.transient], rate: 25)
        trial.groundTrack = true
        let without = trial.headingErrors(refine: false).errors
        let (with, report) = trial.headingErrors(refine: true)
        let last = RefinementTrial.percentile95(with, from: 840, to: 1200)
        let after = RefinementTrial.percentile95(with, from: 740, to: 800)
        let stale = RefinementTrial.percentile95(without, from: 840, to: 1200)
        print("car: last 6 min p95 \(last)° (without --refine \(stale)°), minute after the transient \(after)°")
        #expect(last <= 1.5)
        #expect(after <= 2)
        #expect(stale > 4)
        let change = report?.profileChange ?? .zero
        #expect((change - Self.step.field).norm < 0.5, "\(change)")
    }

    @Test func anUnchangedDriveIsNotMadeWorse() {
        var trial = RefinementTrial(scenario: .car(), duration: 900, rate: 25)
        trial.groundTrack = true
        let without = RefinementTrial.percentile95(trial.headingErrors(refine: false).errors, from: 60, to: 900)
        let (errors, report) = trial.headingErrors(refine: true)
        let with = RefinementTrial.percentile95(errors, from: 60, to: 900)
        print("unchanged car: p95 \(without)° without, \(with)° with --refine")
        #expect(abs(with - without) <= 0.2)
        #expect(report?.adoptions == 0)
    }

    @Test func theCardAndTheRefinementDoNotFight() {
        // A boat whose compass has a heading-dependent residual the profile does not model (3 % more
        // field along x than y: quadrantal deviation, about ±1.7°), which a deviation card learned from
        // the GNSS course removes, and a hard-iron step at 1 min that only the refinement can follow.
        // The card is learned on the heading the refinement corrects, so each keeps its own residual.
        let unmodelled = Matrix3.diagonal(Vector3(1.03, 0.97, 1))
        var step = Self.step
        step.start = 60
        var trial = RefinementTrial(scenario: .boat(), duration: 1200, changes: [step], rate: 25, unmodelled: unmodelled)
        trial.learnsCard = true
        let (both, report) = trial.headingErrors(refine: true)
        let cardOnly = RefinementTrial.percentile95(trial.headingErrors(refine: false).errors, from: 840, to: 1200)
        trial.learnsCard = false
        let refineOnly = RefinementTrial.percentile95(trial.headingErrors(refine: true).errors, from: 840, to: 1200)
        let last = RefinementTrial.percentile95(both, from: 840, to: 1200)
        print("boat: card + refine \(last)°, refine alone \(refineOnly)°, card alone \(cardOnly)°, change \(String(describing: report?.profileChange))")
        #expect(last <= 1.5)
        #expect(last <= refineOnly + 0.1)
        #expect(last < cardOnly)
        let change = report?.profileChange ?? .zero
        #expect((change - step.field).norm < 1, "\(change)")
    }
}
