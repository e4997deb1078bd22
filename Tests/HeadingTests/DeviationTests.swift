import Foundation
import Heading
import Linear
import Testing

@Suite struct DeviationTableTests {
    @Test func fitsSectorValuesAndInterpolatesBetweenThem() {
        var card = DeviationTable(sectorCount: 36)
        for _ in 0..<50 { card.learn(compassHeading: 90, deviation: 4) }
        for _ in 0..<50 { card.learn(compassHeading: 100, deviation: 2) }
        #expect(abs(card.correction(atCompassHeading: 90) - 4) < 0.05)
        #expect(abs(card.correction(atCompassHeading: 95) - 3) < 0.05)
        #expect(card.learnedSectors == 2 && card.counts[9] == 50 && card.counts[10] == 50 && card.totalCount == 100)
        // Sectors never driven are filled across the gap (here from the only two values: 2 … 4).
        let far = card.correction(atCompassHeading: 270)
        #expect(far > 2 && far < 4)
    }

    @Test func fillsAGapByInterpolating() {
        var card = DeviationTable(sectorCount: 24)
        for _ in 0..<40 {
            card.learn(compassHeading: 0, deviation: 2)
            card.learn(compassHeading: 180, deviation: -2)
        }
        #expect(abs(card.correction(atCompassHeading: 90)) < 0.05)
        #expect(abs(card.correction(atCompassHeading: 270)) < 0.05)
        #expect(abs(card.correction(atCompassHeading: 45) - 1) < 0.1)
        #expect(abs(card.correction(atCompassHeading: 315) - 1) < 0.1)
    }

    @Test func observationsBetweenCentresAreNotBiased() {
        // A linear deviation sampled only on one side of each centre is still recovered at the centres.
        var card = DeviationTable(sectorCount: 36)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<3000 {
            let h = 60 + rng.nextUnit() * 60
            card.learn(compassHeading: h, deviation: 0.1 * (h - 90))
        }
        for h in stride(from: 70.0, through: 110, by: 5) {
            #expect(abs(card.correction(atCompassHeading: h) - 0.1 * (h - 90)) < 0.02, "at \(h)")
        }
        card.learn(compassHeading: .nan, deviation: 1)
        card.learn(compassHeading: 30, deviation: .infinity)
        #expect(card.totalCount == 3000)
    }

    @Test func cyclicSolverSolvesTheSystem() throws {
        var rng = SplitMix64(seed: 8)
        for n in [3, 4, 7, 36, 360] {
            let e = (0..<n).map { _ in rng.nextUnit() - 0.5 }
            let d = (0..<n).map { i in abs(e[i]) + abs(e[(i + n - 1) % n]) + 0.1 + rng.nextUnit() }  // SPD
            let r = (0..<n).map { _ in rng.nextGaussian() }
            let x = try #require(CyclicTridiagonal.solve(diagonal: d, offDiagonal: e, rhs: r))
            for i in 0..<n {
                let mx = d[i] * x[i] + e[i] * x[(i + 1) % n] + e[(i + n - 1) % n] * x[(i + n - 1) % n]
                #expect(abs(mx - r[i]) < 1e-9, "n \(n) row \(i)")
            }
        }
        #expect(CyclicTridiagonal.solve(diagonal: [1, 1], offDiagonal: [0, 0], rhs: [1, 1]) == nil)
    }

    @Test func roundTripsThroughPlainArraysAndRejectsBadOnes() throws {
        var card = DeviationTable(sectorCount: 36)
        card.learn(compassHeading: 10, deviation: 2.5)
        let restored = try DeviationTable(corrections: card.corrections, counts: card.counts)
        #expect(restored == card)
        #expect(throws: DeviationTableError.sectorCount(2)) { try DeviationTable(corrections: [0, 0], counts: [0, 0]) }
        #expect(throws: DeviationTableError.lengthMismatch(corrections: 4, counts: 3)) {
            try DeviationTable(corrections: [0, 0, 0, 0], counts: [0, 0, 0])
        }
        #expect(throws: DeviationTableError.badCorrection(index: 1)) {
            try DeviationTable(corrections: [0, .nan, 0, 0], counts: [0, 0, 0, 0])
        }
        #expect(throws: DeviationTableError.badCount(index: 3)) {
            try DeviationTable(corrections: [0, 0, 0, 0], counts: [0, 0, 0, -1])
        }
        #expect(DeviationTableError.sectorCount(2).description.contains("Delete the card"))
        // Corrections only (no counts stored): usable as it is.
        let bare = try DeviationTable(corrections: Array(repeating: 1.5, count: 24))
        #expect(bare.isUsable && bare.correction(atCompassHeading: 123) == 1.5)
    }
}

@Suite struct DeviationLearningTests {
    /// The compass's own error: it reads magnetic − δ(magnetic).
    static func deviation(_ h: Double) -> Double { 3 * sin(radians(h)) + 2 * cos(radians(2 * h)) - 1 }
    static let declination = 12.8

    func learningFilter(mode: DeviationMode = .learn) -> HeadingFilter {
        var config = HeadingFilterConfiguration()
        config.declinationSource = .manual(degrees: Self.declination)
        config.deviationMode = mode
        return HeadingFilter(configuration: config)
    }

    /// Drives straight at `magnetic` for `seconds`, with GNSS course every 0.5 s; returns the last estimate.
    @discardableResult
    func drive(_ f: inout HeadingFilter, _ g: inout SampleGenerator, magnetic: Double, from t0: Double,
               seconds: Double, speed: Double = 8) -> (HeadingEstimate?, [DeviationLearningResult]) {
        var last: HeadingEstimate?
        var results: [DeviationLearningResult] = []
        for i in 0..<Int(seconds * 50) {
            let t = t0 + Double(i) / 50
            last = f.update(sample: g.sample(time: t, yaw: magnetic - Self.deviation(magnetic))) ?? last
            if i % 25 == 24 {
                let course = magnetic + Self.declination
                results.append(f.observeCourse(CourseObservation(monotonic: t, course: course, courseError: 1, speed: speed)))
            }
        }
        return (last, results)
    }

    @Test func learnsACardThatRemovesTheDeviation() throws {
        var f = learningFilter()
        var g = SampleGenerator(seed: 77)
        var t = 0.0
        for heading in stride(from: 0.0, to: 360, by: 10) {
            drive(&f, &g, magnetic: heading, from: t, seconds: 8)
            t += 8
        }
        #expect(f.deviationTable.learnedSectors >= 34)  // one 10° sector is never the compass heading here
        // Probe between and on sectors with a card now applied.
        var worstBefore = 0.0, worstAfter = 0.0
        for heading in stride(from: 3.0, to: 360, by: 25) {
            let (e, _) = drive(&f, &g, magnetic: heading, from: t, seconds: 3, speed: 0)
            t += 3
            let estimate = try #require(e)
            #expect(estimate.flags.contains(.deviationApplied))
            worstAfter = max(worstAfter, abs(angleDifference(try #require(estimate.trueHeading), heading + Self.declination)))
            worstBefore = max(worstBefore, abs(Self.deviation(heading)))
        }
        #expect(worstBefore > 4)
        #expect(worstAfter < 0.5, "after learning: \(worstAfter)°")
    }

    @Test func gatesKeepBadCoursesOut() {
        var f = learningFilter()
        var g = SampleGenerator(seed: 5)
        func observe(_ f: inout HeadingFilter, course: Double = 100 + 12.8, error: Double? = 1, speed: Double = 8,
                     at t: Double) -> DeviationLearningResult {
            f.observeCourse(CourseObservation(monotonic: t, course: course, courseError: error, speed: speed))
        }
        #expect(observe(&f, at: 0) == .rejected(.noHeading))
        _ = run(&f, generator: &g, rate: 50, duration: 3) { _ in 100 }
        #expect(observe(&f, speed: 1, at: 2.98) == .rejected(.tooSlow))
        #expect(observe(&f, error: nil, at: 2.98) == .rejected(.courseErrorUnknown))
        #expect(observe(&f, error: 8, at: 2.98) == .rejected(.courseErrorTooLarge))
        #expect(observe(&f, at: 10) == .rejected(.tooOld))
        #expect(observe(&f, course: 100 + 12.8 + 90, at: 2.98) == .rejected(.outlier))
        #expect(observe(&f, course: .nan, at: 2.98) == .rejected(.invalid))
        if case .learned = observe(&f, at: 2.98) {} else { Issue.record("a good course should be learned") }
        // Turning: 45°/s.
        _ = run(&f, generator: &g, rate: 50, from: 3, duration: 1) { t in 100 + 45 * (t - 3) }
        #expect(observe(&f, at: 3.98) == .rejected(.turning))

        var off = learningFilter(mode: .apply)
        _ = run(&off, generator: &g, rate: 50, duration: 1) { _ in 100 }
        #expect(observe(&off, at: 0.98) == .rejected(.notLearning))

        var config = HeadingFilterConfiguration()
        config.deviationMode = .learn
        var noDeclination = HeadingFilter(configuration: config)
        _ = run(&noDeclination, generator: &g, rate: 50, duration: 1) { _ in 100 }
        #expect(observe(&noDeclination, at: 0.98) == .rejected(.noDeclination))
    }

    @Test func applyModeUsesAStoredCardAndOffIgnoresIt() throws {
        var card = DeviationTable(sectorCount: 36)
        for _ in 0..<10 { card.learn(compassHeading: 50, deviation: 3) }
        for mode in [DeviationMode.apply, .off] {
            var config = HeadingFilterConfiguration()
            config.deviationMode = mode
            config.deviationTable = card
            var f = HeadingFilter(configuration: config)
            var g = SampleGenerator(seed: 1)
            g.magneticNoise = 0; g.accelerationNoise = 0
            let e = try #require(run(&f, generator: &g, rate: 50, duration: 1) { _ in 50 }.last?.estimate)
            let correction = mode == .apply ? card.correction(atCompassHeading: 50) : 0
            #expect(abs(correction - (mode == .apply ? 3 : 0)) < 0.05)
            #expect(abs(e.magneticHeading - 50 - correction) < 1e-6 && abs(e.rawMagneticHeading - 50 - correction) < 1e-6)
            #expect(e.deviation == correction)
            #expect(e.flags.contains(.deviationApplied) == (mode == .apply))
        }
    }
}
