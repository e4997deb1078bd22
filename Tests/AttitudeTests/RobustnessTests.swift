import Attitude
import Foundation
import Linear
import Testing

/// Garbage in never gives NaN out; without a gyro the filter is the plain tilt-compensated compass.
@Suite struct RobustnessTests {
    private func garbage(_ rng: inout SplitMix64) -> Vector3? {
        let pick = rng.next() % 10
        let values: [Double] = [.nan, .infinity, -.infinity, 0, 1e300, -1e-300, .greatestFiniteMagnitude, 5]
        switch pick {
        case 0: return nil
        case 1: return .zero
        case 2, 3: return Vector3(values[Int(rng.next() % 8)], values[Int(rng.next() % 8)], values[Int(rng.next() % 8)])
        default: return Vector3(rng.nextGaussian() * 50, rng.nextGaussian() * 50, rng.nextGaussian() * 50)
        }
    }

    private func expectSane(_ e: AttitudeEstimate) {
        #expect(e.quaternion.isFinite)
        #expect(e.rollDegrees.isFinite && e.pitchDegrees.isFinite)
        if let h = e.headingDegrees { #expect(h.isFinite && h >= 0 && h < 360) }
        if let r = e.rateOfTurnDegreesPerSecond { #expect(r.isFinite) }
        #expect(e.accuracyDegrees.isFinite && e.accuracyDegrees >= 0)
        #expect(e.tiltAccuracyDegrees.isFinite)
        #expect(e.gyroBias.isFinite)
    }

    @Test func garbageInputNeverGivesNaN() {
        var rng = SplitMix64(seed: 41)
        var filter = AttitudeFilter()
        var time = 0.0
        for i in 0..<20000 {
            switch rng.next() % 20 {
            case 0: time = .nan
            case 1: time -= 1
            case 2: time += 1e6
            case 3: time = .infinity
            default: time = (time.isFinite ? time : Double(i)) + 0.01
            }
            filter.update(time: time, gyroscope: garbage(&rng), accelerometer: garbage(&rng), magnetometer: garbage(&rng))
            expectSane(filter.estimate)
            if i % 100 == 50 {
                // A vehicle acceleration that cancels the specific force exactly.
                filter.setVehicleAcceleration(.body(Vector3(0, 0, -1)), time: time)
                filter.update(time: time + 0.001, gyroscope: .zero, accelerometer: Vector3(0, 0, -1), magnetometer: Vector3(20, 0, 40))
                expectSane(filter.estimate)
            }
            if i % 100 == 0 {
                filter.setVehicleAcceleration(.ned(Vector3(rng.nextGaussian(), .nan, 0)), time: time)
                filter.setExpectedField(ned: Vector3(.nan, 1, 2))
            }
        }
        // And it recovers to a right heading once the input is sane again (the field reference it
        // learned from garbage is replaced after the magnetic rejection timeout).
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 250), seed: 42)
        motion.time = (time.isFinite ? time : 0) + 0.5
        for _ in 0..<9000 { filter.update(motion.step(bodyRate: .zero)) }
        #expect(angleError(filter.estimate.headingDegrees ?? .nan, 250) < 2)
    }

    @Test func firstSamplesMayLackSensors() {
        var filter = AttitudeFilter()
        filter.update(time: 0, gyroscope: nil, accelerometer: nil, magnetometer: nil)
        let e = filter.estimate
        expectSane(e)
        #expect(e.headingDegrees == nil)
        #expect(e.flags.contains(.initialising))
        #expect(e.flags.contains(.gyroscopeUnavailable))
    }

    /// Independent tilt compensation: down = −f, east = down × B, north = east × down.
    private func tiltCompensated(_ f: Vector3, _ b: Vector3) -> Double {
        let down = (-f).normalized!
        let east = down.cross(b).normalized!
        let north = east.cross(down)
        var h = degrees(atan2(east.x, north.x))
        if h < 0 { h += 360 }
        return h
    }

    @Test func withoutGyroItIsThePlainTiltCompensatedHeading() {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 20, pitchDegrees: -30, headingDegrees: 100), seed: 43)
        var filter = AttitudeFilter()
        for i in 0..<3000 {
            let t = Double(i) / 100
            let s = motion.step(bodyRate: Vector3(30 * sin(t), 20 * cos(0.7 * t), 40 * sin(0.3 * t)),
                                acceleration: Vector3(0.2 * sin(2 * t), 0.1, 0))
            filter.update(s, gyro: false)
            let e = filter.estimate
            #expect(e.flags.contains(.gyroscopeUnavailable))
            guard let h = e.headingDegrees else { continue }
            #expect(angleError(h, tiltCompensated(s.accelerometer, s.magnetometer)) < 1e-6)
        }
    }

    @Test func gyroDropoutsHandOverSmoothly() {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 10), seed: 44)
        var filter = AttitudeFilter()
        var worst = 0.0
        for i in 0..<6000 {
            let t = Double(i) / 100
            let s = motion.step(bodyRate: t > 10 ? Vector3(0, 0, 10) : .zero)
            filter.update(s, gyro: !(t > 20 && t < 21) && !(t > 40 && t < 40.5))
            if t > 10, let h = filter.estimate.headingDegrees { worst = max(worst, angleError(h, trueHeading(s.truth)!)) }
        }
        #expect(worst < 3, "worst error \(worst)° around gyro dropouts")
    }
}
