import Testing
import Foundation
import Linear
@testable import Calibration

@Suite("Outliers, bad samples and degenerate coverage")
struct RobustnessTests {
    static let field = Synthetic.earthNED.norm

    static func sensor(_ seed: UInt64) -> SyntheticSensor {
        var rng = SplitMix64(seed: seed)
        return SyntheticSensor.random(&rng, fieldStrength: field, offsetScale: 1.5, softIronFraction: 0.2, noise: 0.2)
    }

    static func issues(_ r: Result<CalibrationResult, CalibrationFailure>) -> [CalibrationIssue] {
        if case let .failure(f) = r { return f.issues }
        return []
    }

    @Test func injectedOutliersAreRejected() throws {
        let sensor = Self.sensor(31)
        var raw = Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 60, rate: 50, seed: 32), seed: 33)
        var rng = SplitMix64(seed: 34)
        var injected: [Vector3] = []
        for i in stride(from: 5, to: raw.count, by: 40) {
            let kick = Synthetic.randomUnit(&rng) * (Self.field * (0.3 + 0.7 * rng.nextUnit()))
            raw[i] = raw[i] + kick
            injected.append(raw[i])
        }
        // Outliers clearly off the true ellipsoid (more than 3 % of the field).
        let inverse = try #require(sensor.softIron.inverse)
        let clearlyOff = injected.filter { abs((inverse * ($0 - sensor.offset)).norm - Self.field) > 0.03 * Self.field }
        let result = try CalibrationSolver().solve(raw).get()
        #expect(result.rejectedCount >= clearlyOff.count * 9 / 10)
        #expect(result.rejectedCount <= injected.count + 10)
        #expect(Synthetic.worstLevelHeadingError(sensor, correct: result.fit.apply) < 0.5)
        #expect(result.metrics.residualPercent < 1)
    }

    @Test func nonFiniteSamplesAreDroppedNeverPropagated() throws {
        let sensor = Self.sensor(41)
        var raw = Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 60, rate: 50, seed: 42), seed: 43)
        let bad = [Vector3(.nan, 1, 2), Vector3(1, .infinity, 2), Vector3(1, 2, -.infinity), Vector3(.nan, .nan, .nan)]
        for (k, b) in bad.enumerated() { raw.insert(b, at: 100 * k + 7) }
        let result = try CalibrationSolver().solve(raw).get()
        #expect(result.invalidCount == bad.count)
        #expect(result.inputCount == raw.count)
        #expect(result.fit.offset.isFinite && result.fit.matrix.isFinite && result.fit.fieldStrength.isFinite)
        for value in [result.metrics.residualPercent, result.metrics.spreadAfterPercent, result.metrics.wobblePercent,
                      result.metrics.coveragePercent, result.metrics.spreadBeforePercent] {
            #expect(value.isFinite)
        }
        // All-invalid input: a clear failure, no fit.
        let r = CalibrationSolver().solve(Array(repeating: Vector3(.nan, 0, 0), count: 500))
        #expect(Self.issues(r) == [.tooFewSamples(have: 0, need: 300)])
        #expect(CalibrationSolver().solve([]).failureResult == nil)
    }

    @Test func garbageInputNeverCrashesNorYieldsNaN() {
        var rng = SplitMix64(seed: 77)
        let specials: [Double] = [0, -0.0, 1e300, -1e300, 1e-300, .nan, .infinity, Double.leastNonzeroMagnitude, 1, -1]
        for round in 0..<30 {
            let count = Int(rng.next() % 400)
            let samples = (0..<count).map { _ -> Vector3 in
                func value() -> Double {
                    switch rng.next() % 4 {
                    case 0: return specials[Int(rng.next() % UInt64(specials.count))]
                    case 1: return rng.nextGaussian() * 50
                    default: return rng.nextGaussian() * pow(10, Double(Int(rng.next() % 20)) - 5)
                    }
                }
                return round % 2 == 0 ? Vector3(value(), value(), value()) : Vector3(7, 7, 7) + Synthetic.randomUnit(&rng) * value()
            }
            for options in [CalibrationOptions(), CalibrationOptions(expectedFieldStrength: 50, fullScaleRange: 800)] {
                let outcome = CalibrationSolver(options: options).solve(samples)
                let result: CalibrationResult?
                switch outcome {
                case let .success(r): result = r
                case let .failure(f):
                    result = f.result
                    #expect(!f.issues.isEmpty)
                    #expect(f.issues.allSatisfy { !$0.message.isEmpty })
                }
                if let r = result {
                    #expect(r.fit.offset.isFinite && r.fit.matrix.isFinite && r.fit.fieldStrength.isFinite)
                    #expect(r.metrics.residualPercent.isFinite && r.metrics.wobblePercent.isFinite)
                    #expect(r.metrics.spreadAfterPercent.isFinite && r.metrics.spreadBeforePercent.isFinite)
                }
                var session = CalibrationSession(options: options, refitInterval: 40)
                for s in samples { session.add(s) }
                #expect((0...100).contains(session.progressPercent))
            }
        }
    }

    @Test func saturatedSamplesAreDroppedWhenTheRangeIsKnown() throws {
        let sensor = SyntheticSensor(offset: Vector3(20, 0, 0), softIron: .identity, noise: 0.2)
        var raw = Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 60, rate: 50, seed: 2), seed: 3)
        raw.append(contentsOf: Array(repeating: Vector3(800, 800, -800), count: 10))
        let result = try CalibrationSolver(options: CalibrationOptions(fullScaleRange: 800)).solve(raw).get()
        #expect(result.invalidCount == 10)
    }

    @Test func flatRingIsASinglePlaneFailure() {
        let raw = Synthetic.flatTurn(Self.sensor(51), count: 2000, wobbleDegrees: 3, seed: 52)
        let issues = Self.issues(CalibrationSolver().solve(raw))
        #expect(issues.contains(.singlePlane(axis: .z)))
        let message = issues.first { $0.code == "single_plane" }?.message ?? ""
        #expect(message.contains("single ring") && message.contains("vertical (z) axis") && message.contains("upside down"))
    }

    @Test func singlePoseFailsClearly() {
        let sensor = Self.sensor(61)
        let pose = Synthetic.tumble(seconds: 1, rate: 50, seed: 62)[0]
        let raw = Synthetic.readings(sensor, attitudes: Array(repeating: pose, count: 1500), seed: 63)
        // With the expected field known, the thinning collapses one pose to a few samples.
        let withField = Self.issues(CalibrationSolver(options: CalibrationOptions(expectedFieldStrength: Self.field)).solve(raw))
        #expect(withField.first?.code == "too_few_samples")
        #expect(withField.first?.message.contains("keep turning the board slowly through every orientation") == true)
        // Without it, the noise blob cannot be told apart from a tiny sphere, but it cannot pass.
        let without = Self.issues(CalibrationSolver().solve(raw))
        #expect(!without.isEmpty)
        #expect(without.contains(.tooFewOrientations) || without.contains { $0.code == "residual_too_large" })
    }

    @Test func partialCoverageNamesTheMissingSide() {
        let sensor = Self.sensor(71)
        // The board never tilts beyond 25°: field directions toward the top (−z) are missing, and
        // the vertical terms are too poorly seen for the heading when tilted.
        let attitudes = Synthetic.tumble(seconds: 600, rate: 50, seed: 72).filter { $0[2, 2] > cos(radians(25)) }
        let raw = Synthetic.readings(sensor, attitudes: attitudes, seed: 73)
        let issues = Self.issues(CalibrationSolver().solve(raw))
        guard case let .incompleteCoverage(percent, gaps, missing, _)? = issues.first(where: { $0.code == "incomplete_coverage" }) else {
            Issue.record("expected incomplete coverage, got \(issues)")
            return
        }
        #expect(percent < 90 && gaps >= 15)
        #expect(missing == .top)
        let message = issues.first { $0.code == "incomplete_coverage" }?.message ?? ""
        #expect(message.contains("turn the board upside down"))
        #expect(message.contains("top (-z)"))
        // In the southern hemisphere (field pointing up) the same gap means "hold it upright".
        let south = CalibrationIssue.incompleteCoverage(coveragePercent: percent, gaps: gaps, missing: .top, inclinationDegrees: -60)
        #expect(south.message.contains("hold the board the right way up"))
    }
}

extension Result where Failure == CalibrationFailure {
    var failureResult: CalibrationResult? {
        if case let .failure(f) = self { return f.result }
        return nil
    }
}

@Suite("Order statistics")
struct OrderStatisticsTests {
    @Test func selectionAgreesWithSorting() {
        var rng = SplitMix64(seed: 99)
        for n in [1, 2, 3, 4, 5, 10, 11, 100, 1001] {
            // Ties and specials included.
            let values = (0..<n).map { _ in (rng.nextGaussian() * 4).rounded() / 2 }
            let sorted = values.sorted()
            let median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
            #expect(RobustStatistics.median(values) == median, "n \(n)")
            for q in [0.0, 0.02, 0.5, 0.98, 1.0] {
                #expect(RobustStatistics.quantile(values, q) == sorted[Int((Double(n - 1) * q).rounded())])
            }
        }
        #expect(RobustStatistics.median([.nan, 3, .infinity, 1]) == 2)
        #expect(RobustStatistics.median([]) == 0)
    }
}
