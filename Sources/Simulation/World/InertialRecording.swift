import Glibc
import Linear

/// A simulated inertial recording: what a gyroscope, accelerometer and magnetometer on a moving body
/// read, sample by sample, beside the true attitude — to score attitude filters on vehicles whose
/// motion is known exactly (the benchmark writes it in the same CSV form as real recordings, so
/// reference filters run on the very same samples).
///
/// ```swift
/// let rows = InertialRecording(scenario: .boat(), duration: 300).rows()
/// print(rows[0].gyroscope, rows[0].magneticHeading)
/// ```
public struct InertialRecording: Sendable {
    /// One sample, body axes (x forward, y right, z down).
    public struct Row: Sendable {
        public var time: Double
        /// °/s, bias and noise included.
        public var gyroscope: Vector3
        /// g, specific force (gravity plus the vehicle's acceleration), noise included.
        public var accelerometer: Vector3
        /// µT, noise included.
        public var magnetometer: Vector3
        /// The true attitude (yaw from true north).
        public var attitude: Attitude
        /// The true heading from magnetic north, degrees in [0, 360).
        public var magneticHeading: Double
    }

    public var scenario: AttitudeScenario
    public var world: SimulatedWorld
    /// Seconds.
    public var duration: Double
    /// Samples per second.
    public var rate: Double
    /// Constant gyroscope bias, °/s per axis: 0.5 °/s, what a cheap MEMS gyro shows.
    public var gyroBias: Vector3
    /// White noise per sample and axis: gyroscope °/s, accelerometer g, magnetometer µT
    /// (MPU-6050- and QMC5883L-like at 100 Hz).
    public var gyroNoise: Double
    public var accelerationNoise: Double
    public var magneticNoise: Double
    public var seed: UInt64
    /// Fields added to the earth's (a steel hull alongside, a car parked by the compass), fixed in
    /// the world, each while it lasts.
    public var disturbances: [FieldDisturbance] = []
    /// Changes of the magnetic environment (hard-iron steps, transients) in body axes.
    public var fieldChanges: [FieldChange] = []
    /// The magnetometer's distortion (identity: an exactly calibrated sensor).
    public var model: MagnetometerModel = .ideal

    public init(scenario: AttitudeScenario, world: SimulatedWorld = .sydney, duration: Double = 300, rate: Double = 100,
                gyroBias: Vector3 = Vector3(0.5, -0.5, 0.5), gyroNoise: Double = 0.1, accelerationNoise: Double = 0.005,
                magneticNoise: Double = 0.3, seed: UInt64 = 1) {
        self.scenario = scenario
        self.world = world
        self.duration = duration
        self.rate = rate
        self.gyroBias = gyroBias
        self.gyroNoise = gyroNoise
        self.accelerationNoise = accelerationNoise
        self.magneticNoise = magneticNoise
        self.seed = seed
    }

    /// Every sample from time 0 to `duration`.
    public func rows() -> [Row] {
        // The identity mounting: the chip axes are the body axes.
        var setup = SimulationSetup(world: world, scenario: scenario, model: model,
                                    orientation: (try? .custom(matrix: .identity)) ?? .componentSideUp, gyroBias: gyroBias)
        setup.fieldChanges = fieldChanges
        var rng = SplitMix64(seed: seed)
        func noise(_ s: Double) -> Vector3 { Vector3(rng.nextGaussian() * s, rng.nextGaussian() * s, rng.nextGaussian() * s) }
        let period = 1 / max(1, rate.isFinite ? rate : 100)
        let count = Int((max(0, duration.isFinite ? duration : 0) / period).rounded(.down))
        var rows: [Row] = []
        rows.reserveCapacity(count)
        for i in 0..<count {
            let t = Double(i) * period
            let attitude = scenario.attitude(at: t)
            var heading = (attitude.yaw - world.declination).truncatingRemainder(dividingBy: 360)
            if heading < 0 { heading += 360 }
            var field = setup.chipField(atScenarioTime: t)
            for d in disturbances where d.weight(at: t) > 0 {
                field += attitude.bodyToNED.transposed * (d.ned * d.weight(at: t))
            }
            rows.append(Row(time: t,
                            gyroscope: setup.chipRotationRate(atScenarioTime: t) + noise(gyroNoise),
                            accelerometer: setup.chipAcceleration(atScenarioTime: t) + noise(accelerationNoise),
                            magnetometer: field + noise(magneticNoise),
                            attitude: attitude, magneticHeading: heading))
        }
        return rows
    }
}

/// A magnetic field added to the earth's for a while, fixed in the world (true NED, µT): it comes
/// and goes over `ramp` seconds, as a body of steel does when it nears and leaves.
///
/// ```swift
/// var recording = InertialRecording(scenario: .boat(), duration: 300)
/// recording.disturbances = [FieldDisturbance(ned: Vector3(0, 15, 0), start: 120, duration: 30)]
/// ```
public struct FieldDisturbance: Sendable, Hashable {
    /// The added field, true NED, µT.
    public var ned: Vector3
    /// When it starts to come (s) and how long it stays at full strength after arriving (s).
    public var start: Double
    public var duration: Double
    /// Seconds it takes to come and to go.
    public var ramp: Double

    public init(ned: Vector3, start: Double, duration: Double, ramp: Double = 2) {
        self.ned = ned
        self.start = start
        self.duration = duration
        self.ramp = ramp
    }

    /// 0 before and after, 1 at full strength, a smooth ramp between.
    public func weight(at t: Double) -> Double {
        let r = max(1e-9, ramp)
        let rising = (t - start) / r, falling = (start + r + duration + r - t) / r
        let x = max(0, min(1, min(rising, falling)))
        return 0.5 - 0.5 * cos(.pi * x)
    }
}
