import Attitude
import Foundation
import Linear
import Testing

/// Magnetic disturbances: rejected while the gyro carries the heading, flagged, and accepted as a new
/// reference when they outlast what the gyro can hold.
@Suite struct MagneticDisturbanceTests {
    /// A still compass; a 15 µT field (a passing car) from `start` for `duration` seconds.
    private func stillWithDisturbance(_ disturbance: Vector3, start: Double, duration: Double, total: Double,
                                      settings: AttitudeSettings = AttitudeSettings())
        -> (headings: [(t: Double, h: Double)], flagged: Int, inside: Int, changed: Bool) {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 2, pitchDegrees: 1, headingDegrees: 135), seed: 21)
        motion.gyroBias = Vector3(0.3, 0.2, -0.5)
        var filter = AttitudeFilter(settings: settings)
        var headings: [(Double, Double)] = []
        var flagged = 0, inside = 0, changed = false
        for i in 0..<Int(total * 100) {
            let t = Double(i) / 100
            let on = t >= start && t < start + duration
            filter.update(motion.step(bodyRate: .zero, disturbance: on ? disturbance : .zero))
            let e = filter.estimate
            if let h = e.headingDegrees { headings.append((t, h)) }
            if on {
                inside += 1
                if e.flags.contains(.magneticDisturbance) { flagged += 1 }
            }
            if e.flags.contains(.magneticReferenceChanged) { changed = true }
        }
        return (headings, flagged, inside, changed)
    }

    @Test(arguments: [Vector3(0, 15, 0), Vector3(-15, 0, 0), Vector3(0, -10, 11), Vector3(8, 8, -9)])
    func passingCarMovesHeadingAtMostTwoDegreesAndIsFlagged(disturbance: Vector3) {
        let run = stillWithDisturbance(disturbance, start: 30, duration: 10, total: 70)
        let before = run.headings.last { $0.t < 30 }!.h
        let worst = run.headings.filter { $0.t >= 30 }.map { angleError($0.h, before) }.max() ?? 0
        #expect(worst <= 2, "heading moved \(worst)° for \(disturbance)")
        #expect(Double(run.flagged) >= 0.9 * Double(run.inside), "flagged \(run.flagged) of \(run.inside)")
        #expect(!run.changed)
    }

    @Test func lastingChangeBecomesTheNewReference() {
        // The compass is moved into a new, steady field (e.g. mounted near iron): after the rejection
        // limit the field is accepted again and the heading follows it.
        let offset = Vector3(0, 12, 5)
        let run = stillWithDisturbance(offset, start: 20, duration: 1000, total: 200)
        #expect(run.changed)
        let field = SyntheticMotion().field + offset
        let newNorth = degrees(atan2(field.y, field.x))
        let last = run.headings.last!.h
        // The body points at 135° from the old north, so at 135° − newNorth from the new one.
        #expect(angleError(last, 135 - newNorth) < 2, "heading \(last)°, expected \(135 - newNorth)°")
        let flaggedAtEnd = stillWithDisturbance(offset, start: 20, duration: 1000, total: 200).flagged
        #expect(flaggedAtEnd < 100 * 100)
    }

    @Test func expectedFieldCatchesADisturbancePresentFromTheStart() {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 30), seed: 22)
        var filter = AttitudeFilter()
        filter.setExpectedField(ned: motion.field)
        var flagged = 0
        for _ in 0..<1000 {
            filter.update(motion.step(bodyRate: .zero, disturbance: Vector3(0, 0, 20)))
            if filter.estimate.flags.contains(.magneticDisturbance) { flagged += 1 }
        }
        #expect(flagged > 500)
    }

    @Test func accuracyGrowsWhileTheGyroCarriesTheHeading() {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 300), seed: 23)
        var filter = AttitudeFilter()
        var before = 0.0, during = 0.0
        for i in 0..<6000 {
            let t = Double(i) / 100
            filter.update(motion.step(bodyRate: Vector3(0, 0, 5 * sin(t)), disturbance: t >= 30 ? Vector3(10, 10, 0) : .zero))
            if i == 2999 { before = filter.estimate.accuracyDegrees }
            if i == 5999 { during = filter.estimate.accuracyDegrees }
        }
        #expect(during > before, "accuracy \(before)° before, \(during)° after 30 s of disturbance")
    }
}
