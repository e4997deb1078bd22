import Testing
import Foundation
import Linear
@testable import Calibration

/// Every failure path, each with its message checked for the reason and the fix.
@Suite("Calibration issues and their messages")
struct IssueTests {
    static let field = Synthetic.earthNED.norm

    static func tumble(_ sensor: SyntheticSensor, seed: UInt64 = 1) -> [Vector3] {
        Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 60, rate: 50, seed: seed), seed: seed &+ 1)
    }

    static func issues(_ raw: [Vector3], _ options: CalibrationOptions = CalibrationOptions()) -> [CalibrationIssue] {
        if case let .failure(f) = CalibrationSolver(options: options).solve(raw) { return f.issues }
        return []
    }

    static let clean = SyntheticSensor(offset: Vector3(12, -40, 25), softIron: .identity, noise: 0.2)

    @Test func tooFewSamples() {
        let raw = Array(Self.tumble(Self.clean).prefix(150))
        let issues = Self.issues(raw, CalibrationOptions(expectedFieldStrength: Self.field))
        guard case let .tooFewSamples(have, need)? = issues.first else { Issue.record("\(issues)"); return }
        #expect(need == 300 && have < 300)
        #expect(issues[0].message == "too few samples (\(have) of 300 needed): keep turning the board slowly through every orientation")
    }

    @Test func fieldTooStrongAndTooWeak() {
        let raw = Self.tumble(Self.clean)
        let strong = Self.issues(raw, CalibrationOptions(expectedFieldStrength: Self.field / 1.6))
        #expect(strong.count == 1)
        #expect(strong.first?.message.hasPrefix("field 160 % of expected: a magnet or steel nearby? move away from metal") == true)
        let weak = Self.issues(raw, CalibrationOptions(expectedFieldStrength: Self.field * 2))
        #expect(weak.first?.code == "field_too_weak")
        #expect(weak.first?.message.contains("field 50.0 % of expected") == true)
        #expect(weak.first?.message.contains("check the chip settings") == true)
        // Within ×[0.67, 1.5]: passes.
        #expect(Self.issues(raw, CalibrationOptions(expectedFieldStrength: Self.field * 1.2)).isEmpty)
    }

    @Test func fieldImplausible() {
        let issues = Self.issues(Self.tumble(Self.clean), CalibrationOptions(plausibleFieldRange: 20...40))
        #expect(issues.first?.code == "field_implausible")
        #expect(issues.first?.message.contains("outside the plausible 20.0–40.0") == true)
    }

    @Test func offsetBeyondTheChipRange() {
        let sensor = SyntheticSensor(offset: Vector3(130, 130, 130), softIron: .identity, noise: 0.2)
        let issues = Self.issues(Self.tumble(sensor), CalibrationOptions(fullScaleRange: 200))
        guard case let .offsetTooLarge(magnitude, limit)? = issues.first, issues.count == 1 else {
            Issue.record("\(issues)")
            return
        }
        #expect(abs(magnitude - 130 * 3.0.squareRoot()) < 1 && limit == 200)
        let message = issues.first?.message ?? ""
        #expect(message.contains("exceeds the sensor range 200.0") && message.contains("move the sensor away from magnets"))
    }

    @Test func softIronTooStrong() {
        let sensor = SyntheticSensor(offset: Vector3(5, 5, 5), softIron: .diagonal(Vector3(15, 1, 1)), noise: 0.2)
        let issues = Self.issues(Self.tumble(sensor))
        #expect(issues.contains { $0.code == "soft_iron_too_strong" })
        let message = issues.first { $0.code == "soft_iron_too_strong" }?.message ?? ""
        #expect(message.contains("15.0 : 1") && message.contains("mount it away from steel"))
    }

    @Test func tooManyOutliers() {
        var raw = Self.tumble(Self.clean)
        var rng = SplitMix64(seed: 9)
        for i in stride(from: 0, to: raw.count, by: 6) {
            raw[i] = raw[i] + Synthetic.randomUnit(&rng) * (Self.field * (0.4 + 0.6 * rng.nextUnit()))
        }
        let issues = Self.issues(raw)
        #expect(issues.contains { $0.code == "too_many_outliers" })
        let message = issues.first { $0.code == "too_many_outliers" }?.message ?? ""
        #expect(message.contains("samples were outliers") && message.contains("keep still surroundings"))
    }

    /// Coverage, residual, spread and wobble no longer refuse on their own: they explain a refusal
    /// by the predicted heading error. Paths data rarely reaches are checked through the evaluator.
    @Test func guidanceExplainsAHeadingErrorRefusalButNeverRefusesAlone() throws {
        let raw = Self.tumble(Self.clean)
        var result = try CalibrationSolver().solve(raw).get()
        let evaluator = IssueEvaluator(options: CalibrationOptions())
        #expect(evaluator.issues(for: result).isEmpty)
        result.metrics.spreadAfterPercent = 6
        result.metrics.wobblePercent = 7.5
        result.metrics.residualPercent = 8
        #expect(evaluator.issues(for: result).isEmpty)
        result.headingError.level = 3
        result.diagnosis?.whiteNoise = 0.1
        result.diagnosis?.systematic = 3
        var issues = evaluator.issues(for: result)
        #expect(issues.first?.code == "heading_error_too_large")
        #expect(issues.contains(.residualTooLarge(percent: 8, limit: 5)))
        let residual = CalibrationIssue.residualTooLarge(percent: 8, limit: 5).message
        #expect(residual.contains("limit 5.0 %") && residual.contains("keep away from metal and electrical loads"))
        result.metrics.residualPercent = 1
        issues = evaluator.issues(for: result)
        #expect(issues.contains(.wobbleTooLarge(percent: 7.5, limit: 4)))
        #expect(CalibrationIssue.spreadTooLarge(percent: 6, limit: 4.5).message
                == "corrected field strength varies by 6.0 % (limit 4.5 %): keep the board away from metal, magnets and cables while turning, and try again")
        #expect(CalibrationIssue.wobbleTooLarge(percent: 7.5, limit: 4).message.contains("filling the sides you turned least"))
        // White noise larger than the systematic part: the explanation is the noise.
        result.diagnosis?.whiteNoise = 3
        result.diagnosis?.systematic = 1
        issues = evaluator.issues(for: result)
        #expect(issues.contains { $0.code == "noisy_sensor" })
        // Underdetermined without a nameable gap → "too few orientations".
        issues = evaluator.issues(for: result, underdetermined: true)
        #expect(issues.contains(.tooFewOrientations))
        #expect(CalibrationIssue.tooFewOrientations.message.contains("including upside down and on each side"))
    }

    @Test func remainingMessagesNameReasonAndFix() {
        let cases: [(CalibrationIssue, [String])] = [
            (.fitFailed, ["could not fit", "turn the board slowly"]),
            (.singlePlane(axis: .x), ["front–back (x) axis", "tilt it"]),
            (.incompleteCoverage(coveragePercent: 62, gaps: 40.3, missing: nil, inclinationDegrees: nil),
             ["only 62.0 % of orientations covered (gap score 40.3)", "fill the gaps"]),
            (.incompleteCoverage(coveragePercent: 70, gaps: 31, missing: .left, inclinationDegrees: 10),
             ["toward the board's left (-y)", "point the board's left toward magnetic north"]),
            (.incompleteCoverage(coveragePercent: 70, gaps: 31, missing: .front, inclinationDegrees: 65),
             ["tilt the board so its front points down"]),
            (.residualTooLarge(percent: 25, limit: 5), ["do not form a sphere"]),
        ]
        for (issue, fragments) in cases {
            for f in fragments { #expect(issue.message.contains(f), "\(issue.message)") }
        }
        let failure = CalibrationFailure(issues: [], result: nil)
        #expect(failure.issues == [.fitFailed])
        #expect(!failure.message.isEmpty)
    }
}
