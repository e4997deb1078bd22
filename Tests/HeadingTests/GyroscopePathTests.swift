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
}
