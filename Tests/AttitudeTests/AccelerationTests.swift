import Attitude
import Foundation
import Linear
import Testing

/// Vehicle acceleration: removed when GNSS gives it, rejected when sustained, never a long freeze;
/// and a rolling, heaving boat.
@Suite struct AccelerationTests {
    /// A level car facing east: still for 20 s, then `launches` of 0.3 g forward for 6 s, 10 s apart.
    private func car(gnss: Bool) -> (headingP95: Double, tiltWorst: Double, rejected: Int, coverage: Double) {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 90), seed: 51)
        motion.gyroBias = Vector3(0.2, -0.3, 0.4)
        var filter = AttitudeFilter()
        var errors: [Double] = [], tiltWorst = 0.0, rejected = 0, covered = 0
        for i in 0..<9000 {
            let t = Double(i) / 100
            let launching = t > 20 && (t - 20).truncatingRemainder(dividingBy: 16) < 6
            let a = launching ? Vector3(0, 0.3, 0) : .zero   // east, g
            let s = motion.step(bodyRate: .zero, acceleration: a)
            if gnss {
                filter.setVehicleAcceleration(.fromGroundTrack(speed: 10, speedRate: a.y * VehicleAcceleration.standardGravity,
                                                               courseDegrees: 90, courseRateDegreesPerSecond: 0), time: s.time)
            }
            filter.update(s)
            let e = filter.estimate
            if e.flags.contains(.accelerationRejected) { rejected += 1 }
            guard t > 20 else { continue }
            errors.append(angleError(e.headingDegrees ?? .nan, 90))
            if errors.last! <= e.accuracyDegrees { covered += 1 }
            tiltWorst = max(tiltWorst, max(abs(e.rollDegrees), abs(e.pitchDegrees)))
        }
        let coverage = Double(covered) / Double(errors.count)
        errors.sort()
        return (errors[errors.count * 95 / 100], tiltWorst, rejected, coverage)
    }

    @Test func gnssAccelerationIsRemovedFromGravity() {
        let r = car(gnss: true)
        #expect(r.tiltWorst < 0.5, "tilt error \(r.tiltWorst)°")
        #expect(r.headingP95 < 1, "heading p95 \(r.headingP95)°")
        #expect(r.rejected == 0)
        #expect(r.coverage >= 0.9, "accuracy covered \(r.coverage)")
    }

    @Test func sustainedLaunchesWithoutGnssAreRejectedAndStayBounded() {
        let r = car(gnss: false)
        #expect(r.rejected > 0)
        // The unfiltered compass would tilt by 16.7° and turn the heading by tens of degrees; a
        // launch shows only after a second or so (shaking by hand looks the same until then).
        #expect(r.tiltWorst < 8, "tilt error \(r.tiltWorst)°")
        #expect(r.headingP95 < 10, "heading p95 \(r.headingP95)°")
        #expect(r.coverage >= 0.9, "accuracy covered \(r.coverage)")
    }

    @Test func rejectionNeverFreezesTilt() {
        // A constant 0.4 g sideways for 60 s (a long turn): gravity is rejected at first, but never
        // for longer than the timeout at a stretch, and in the end the filter follows the data.
        var motion = SyntheticMotion(orientation: .identity, seed: 52)
        var settings = AttitudeSettings()
        settings.accelerationRejectionTimeout = 5
        var filter = AttitudeFilter(settings: settings)
        var stretch = 0.0, longest = 0.0, everRejected = false
        for i in 0..<8000 {
            let t = Double(i) / 100
            filter.update(motion.step(bodyRate: .zero, acceleration: t > 10 ? Vector3(0, 0.4, 0) : .zero))
            if filter.estimate.flags.contains(.accelerationRejected) {
                stretch += 0.01
                everRejected = true
            } else {
                stretch = 0
            }
            longest = max(longest, stretch)
        }
        #expect(everRejected)
        #expect(longest <= settings.accelerationRejectionTimeout + 0.05, "rejected for \(longest) s at a stretch")
        // After a minute the apparent vertical is the only one there is: the estimate has followed it.
        let apparentRoll = degrees(atan2(0.4, 1.0))
        #expect(abs(abs(filter.estimate.rollDegrees) - apparentRoll) < 3, "roll \(filter.estimate.rollDegrees)°")
    }

    @Test func rollingHeavingBoatKeepsHeading() {
        // Rolling ±20° every 8 s, pitching ±5°, heaving ±0.2 g every 5 s, heading 200°.
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 200), seed: 53)
        motion.gyroBias = Vector3(-0.3, 0.5, 0.2)
        var filter = AttitudeFilter()
        var errors: [Double] = []
        var covered = 0
        for i in 0..<18000 {
            let t = Double(i) / 100
            let rollRate = t > 10 ? 20 * (2 * .pi / 8) * cos(2 * .pi * t / 8) : 0
            let pitchRate = t > 10 ? 5 * (2 * .pi / 6) * cos(2 * .pi * t / 6) : 0
            let heave = t > 10 ? 0.2 * sin(2 * .pi * t / 5) : 0
            let s = motion.step(bodyRate: Vector3(rollRate, pitchRate, 0), acceleration: Vector3(0, 0, heave))
            filter.update(s)
            if t > 30, let h = filter.estimate.headingDegrees, let truth = trueHeading(s.truth) {
                errors.append(angleError(h, truth))
                if errors.last! <= filter.estimate.accuracyDegrees { covered += 1 }
            }
        }
        #expect(Double(covered) >= 0.9 * Double(errors.count), "accuracy covered \(covered) of \(errors.count)")
        errors.sort()
        #expect(errors[errors.count * 95 / 100] < 2, "p95 \(errors[errors.count * 95 / 100])°")
    }

    @Test func groundTrackAccelerationPointsTheRightWay() {
        // 10 m/s heading east, turning to starboard at 10 °/s: centripetal acceleration points south.
        guard case .ned(let a) = VehicleAcceleration.fromGroundTrack(speed: 10, speedRate: 0, courseDegrees: 90,
                                                                     courseRateDegreesPerSecond: 10) else {
            Issue.record("expected NED"); return
        }
        let expected = 10 * radians(10) / VehicleAcceleration.standardGravity
        #expect(abs(a.x + expected) < 1e-12 && abs(a.y) < 1e-12 && a.z == 0)
        // Speeding up northwards at 2 m/s².
        guard case .ned(let b) = VehicleAcceleration.fromGroundTrack(speed: 5, speedRate: 2, courseDegrees: 0,
                                                                     courseRateDegreesPerSecond: 0) else { return }
        #expect(abs(b.x - 2 / VehicleAcceleration.standardGravity) < 1e-12 && abs(b.y) < 1e-12)
    }
}
