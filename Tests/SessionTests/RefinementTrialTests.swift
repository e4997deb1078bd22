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
        // A compass with a heading-dependent residual the profile does not model (3 % more field along
        // x than y: quadrantal deviation, about ±1.7°) that its deviation card removes, and a hard-iron
        // step at 5 min that only the refinement can follow. Driven round every heading, the two
        // residuals are orthogonal (the offset's first harmonic, the card's second): each keeps its own.
        let unmodelled = Matrix3.diagonal(Vector3(1.03, 0.97, 1))
        var trial = RefinementTrial(scenario: .car(), duration: 1200, changes: [Self.step], rate: 25, unmodelled: unmodelled)
        trial.groundTrack = true
        trial.deviationCard = trial.cardForUnmodelled
        let (both, report) = trial.headingErrors(refine: true)
        let cardOnly = RefinementTrial.percentile95(trial.headingErrors(refine: false).errors, from: 840, to: 1200)
        trial.deviationCard = nil
        let (alone, reportAlone) = trial.headingErrors(refine: true)
        let refineOnly = RefinementTrial.percentile95(alone, from: 840, to: 1200)
        let last = RefinementTrial.percentile95(both, from: 840, to: 1200)
        print("card + refine \(last)°, refine alone \(refineOnly)°, card alone \(cardOnly)°, change \(String(describing: report?.profileChange))")
        // The refinement is fitted on the field before the card: the card does not move it.
        let change = report?.profileChange ?? .zero
        #expect((change - (reportAlone?.profileChange ?? .zero)).norm < 0.05)
        #expect((change - Self.step.field).norm < 0.7, "\(change)")
        // Together never clearly worse than the refinement alone, and far better than the card alone,
        // which cannot follow the step.
        #expect(last <= refineOnly + 0.25)
        #expect(last < cardOnly / 3)
        #expect(last <= 2.5)
    }
}
