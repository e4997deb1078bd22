import Testing
import Foundation
import Linear
@testable import Calibration

@Suite("Incremental calibration session")
struct SessionTests {
    static let field = Synthetic.earthNED.norm

    static func sensor() -> SyntheticSensor {
        var rng = SplitMix64(seed: 81)
        return SyntheticSensor.random(&rng, fieldStrength: field, offsetScale: 2, softIronFraction: 0.25, noise: 0.2)
    }

    @Test(arguments: [true, false])
    func progressNeverShows100BeforeSuccess(expectedFieldKnown: Bool) throws {
        let sensor = Self.sensor()
        let raw = Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 90, rate: 50, seed: 82), seed: 83)
        let options = expectedFieldKnown ? CalibrationOptions(expectedFieldStrength: Self.field) : CalibrationOptions()
        var session = CalibrationSession(options: options)
        #expect(session.progressPercent == 0)
        #expect(session.issues.first?.code == "too_few_samples")
        var readyAt: Int?
        var maxProgressBeforeReady = 0
        for (i, s) in raw.enumerated() {
            session.add(s)
            if session.isReady {
                readyAt = readyAt ?? i
                #expect(session.progressPercent == 100)
            } else {
                #expect(session.progressPercent <= 99)
                maxProgressBeforeReady = max(maxProgressBeforeReady, session.progressPercent)
            }
        }
        #expect(readyAt != nil)
        #expect(maxProgressBeforeReady >= 80)
        #expect(session.receivedCount == raw.count)
        #expect(session.issues.isEmpty)
        let result = try session.finish().get()
        #expect(Synthetic.worstLevelHeadingError(sensor, correct: result.fit.apply) < 0.5)
        #expect(session.coverage.coveragePercent >= 90)
    }

    @Test func lingeringAddsRedundantSamplesAndInvalidOnesAreCounted() {
        var session = CalibrationSession(options: CalibrationOptions(expectedFieldStrength: Self.field))
        let sensor = Self.sensor()
        let pose = Synthetic.tumble(seconds: 1, rate: 50, seed: 5)[0]
        let raw = Synthetic.readings(sensor, attitudes: Array(repeating: pose, count: 500), seed: 6)
        var kept = 0
        for s in raw where session.add(s) == .kept { kept += 1 }
        #expect(kept <= 3)
        #expect(session.distinctCount == kept)
        #expect(session.add(Vector3(.nan, 0, 0)) == .invalid)
        #expect(session.add(Vector3(0, .infinity, 0)) == .invalid)
        #expect(session.invalidCount == 2)
        #expect(session.progressPercent < 10)
        guard case let .failure(f) = session.finish() else { Issue.record("one pose must not pass"); return }
        #expect(f.issues.first?.code == "too_few_samples")
    }

    @Test func liveCoverageGrowsAsTheBoardTurns() {
        let sensor = Self.sensor()
        let raw = Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 60, rate: 50, seed: 91), seed: 92)
        var session = CalibrationSession(options: CalibrationOptions(expectedFieldStrength: Self.field))
        var checkpoints: [Double] = []
        for (i, s) in raw.enumerated() {
            session.add(s)
            if i % 1000 == 999 { checkpoints.append(session.coverage.coveragePercent) }
        }
        #expect(checkpoints.count == 3)
        #expect(checkpoints[0] > 20)
        #expect(checkpoints[2] >= checkpoints[0])
        #expect(session.latest != nil)
    }

    @Test func manyAddsAreCheap() {
        // 20,000 adds including refits finish quickly even in a debug build.
        let sensor = Self.sensor()
        let raw = Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 400, rate: 50, seed: 7), seed: 8)
        var session = CalibrationSession(options: CalibrationOptions(expectedFieldStrength: Self.field))
        let start = Date()
        for s in raw { session.add(s) }
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(session.isReady)
    }
}
