import Attitude
import Heading
import Linear
import Testing

/// The heading stage with a rotation rate: the attitude filter's heading, roll and pitch pass
/// through unchanged, with declination and flags added.
@Suite("heading filter: the gyro-aided path")
struct GyroscopePathTests {
    @Test("roll, pitch, heading and rate of turn are the attitude filter's; the declination is added")
    func passesTheAttitudeThrough() throws {
        var config = HeadingFilterConfiguration()
        config.declinationSource = .manual(degrees: 12.5)
        var heading = HeadingFilter(configuration: config)
        var attitude = AttitudeFilter()
        let field = Vector3(22, 0, 45)   // magnetic frame: north and down
        var last: (HeadingEstimate, AttitudeEstimate)?
        for i in 0..<2000 {
            let t = Double(i) * 0.01
            let yaw = 30 + 5 * t, roll = 10.0, pitch = -4.0
            let r = Matrix3.rotation(roll: radians(roll), pitch: radians(pitch), yaw: radians(yaw)).transposed
            let sample = CalibratedSample(monotonic: t, wall: 1_790_000_000 + t, magnetic: r * field,
                                          acceleration: r * Vector3(0, 0, -1), rotationRate: r * Vector3(0, 0, 5))
            attitude.update(time: t, gyroscope: sample.rotationRate, accelerometer: sample.acceleration, magnetometer: sample.magnetic)
            if let e = heading.update(sample: sample) { last = (e, attitude.estimate) }
        }
        let (e, a) = try #require(last)
        let expected = try #require(a.headingDegrees)
        #expect(abs(e.magneticHeading - expected) < 1e-9)
        #expect(abs((e.trueHeading ?? 0) - (expected + 12.5).truncatingRemainder(dividingBy: 360)) < 1e-9)
        #expect(abs((e.roll ?? 0) - a.rollDegrees) < 1e-6 && abs((e.pitch ?? 0) - a.pitchDegrees) < 1e-6)
        #expect(abs(e.roll! - 10) < 1 && abs(e.pitch! + 4) < 1, "roll \(e.roll!), pitch \(e.pitch!)")
        #expect(abs(e.turnRate - 5) < 0.5, "rate of turn \(e.turnRate)")
        #expect(e.flags.contains(.gyroAided))
        #expect(e.attitude != nil)
    }

    @Test("a car in a long steady turn: with its ground track from GNSS the tilt stays level")
    func groundTrackRemovesTheCentripetalAcceleration() {
        func run(withGroundTrack: Bool) -> Double {
            var config = HeadingFilterConfiguration()
            config.declinationSource = .manual(degrees: 0)
            var filter = HeadingFilter(configuration: config)
            let speed = 15.0, turn = 10.0   // m/s, °/s to starboard: 0.27 g towards the inside
            let lateral = speed * radians(turn) / 9.80665
            var worst = 0.0
            for i in 0..<6000 {
                let t = Double(i) * 0.01
                let yaw = turn * t
                let r = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(yaw)).transposed
                let sample = CalibratedSample(monotonic: t, wall: 1_790_000_000 + t, magnetic: r * Vector3(22, 0, 45),
                                              acceleration: Vector3(0, lateral, -1), rotationRate: Vector3(0, 0, turn))
                if withGroundTrack, i % 100 == 0 {
                    // GNSS at 1 Hz, as a receiver gives it.
                    filter.observeGroundTrack(speed: speed, speedRate: 0, courseRate: turn, monotonic: t)
                }
                // Judged once the lean taken in before the first fix (t < 1 s) has been worked off.
                if let e = filter.update(sample: sample), t > 20 { worst = max(worst, abs(e.roll ?? 0)) }
            }
            return worst
        }
        let with = run(withGroundTrack: true), without = run(withGroundTrack: false)
        #expect(with < 1.5, "roll error \(with)° with the ground track, \(without)° without")
        #expect(with < without / 2, "with \(with)°, without \(without)°")
    }

    @Test("a calibration's error is averaged by a heading that keeps turning, and kept whole by one that does not")
    func aTurningHeadingAveragesTheCalibrationError() throws {
        /// After 60 s turning steadily at `rate` °/s: the accuracy with a 0.5 µT calibration
        /// residual and with none, the calibration's own bound, the share and the heading's τ.
        func run(turning rate: Double) throws -> (with: Double, without: Double, calibration: Double, share: Double, tau: Double) {
            var accuracies: [Double] = []
            var calibration = 0.0
            var attitude = AttitudeFilter()
            for residual in [0.5, 0] {
                var config = HeadingFilterConfiguration()
                config.declinationSource = .manual(degrees: 0)
                config.calibrationResidualMicrotesla = residual
                if residual > 0 { calibration = config.accuracy.calibrationAccuracy(horizontalField: 22) }
                var filter = HeadingFilter(configuration: config)
                var last: HeadingEstimate?
                attitude = AttitudeFilter()
                for i in 0..<6000 {
                    let t = Double(i) * 0.01
                    let r = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(rate * t)).transposed
                    let sample = CalibratedSample(monotonic: t, wall: 1_790_000_000 + t, magnetic: r * Vector3(22, 0, 45),
                                                  acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, rate))
                    attitude.update(time: t, gyroscope: sample.rotationRate, accelerometer: sample.acceleration, magnetometer: sample.magnetic)
                    last = filter.update(sample: sample) ?? last
                }
                accuracies.append(try #require(last).accuracy)
            }
            return (accuracies[0], accuracies[1], calibration, attitude.estimate.calibrationErrorShare,
                    attitude.accuracyModel.headingTimeConstant)
        }
        // The calibration's part of the accuracy: what the residual adds, in quadrature.
        func added(_ r: (with: Double, without: Double, calibration: Double, share: Double, tau: Double)) -> Double {
            (r.with * r.with - r.without * r.without).squareRoot()
        }
        let still = try run(turning: 0), turning = try run(turning: 20)
        // Still, the calibration's error is the heading's for as long as the body stays: all of it.
        #expect(still.share == 1)
        #expect(abs(added(still) - still.calibration) < 0.01 * still.calibration, "still: \(added(still))° of \(still.calibration)°")
        // Turning at 20 °/s (0.35 rad/s) against the heading's τ: 1 / (1 + ω τ) of its variance.
        let expected = 1 / (1 + radians(20) * turning.tau)
        #expect(abs(turning.share - expected) < 0.05 * expected, "share \(turning.share), expected \(expected) for τ \(turning.tau) s")
        #expect(turning.share < 0.3, "share \(turning.share)")
        #expect(abs(added(turning) - turning.calibration * turning.share.squareRoot()) < 0.02 * turning.calibration,
                "turning: \(added(turning))° of \(turning.calibration)°, share \(turning.share)")
    }
}
