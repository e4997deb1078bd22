import Glibc
import Calibration
import Linear
import Platform
import Sensors
import Simulation
import Synchronization

/// The simulated person holding the board during `lodestone calibrate --simulate`: it tumbles the
/// board through every orientation while the coverage map fills, and holds it still where the
/// wizard asks (a face up for the accelerometer, level toward a landmark for the heading alignment).
///
/// ```swift
/// let hand = SimulatedHand(tumble: .tumble(period: 40, field: world.field))
/// setup.scenario = hand.scenario
/// hand.hold(Attitude(roll: 0, pitch: 0, yaw: 123))      // later: point at a landmark
/// ```
final class SimulatedHand: Sendable {
    private let pose: Mutex<Attitude?>
    let tumble: AttitudeScenario

    init(tumble: AttitudeScenario) {
        self.tumble = tumble
        pose = Mutex(nil)
    }

    /// The scenario the simulated rig follows: the tumble, or the attitude being held.
    var scenario: AttitudeScenario {
        AttitudeScenario(name: "calibration hand") { [self] t in pose.withLock { $0 } ?? tumble.attitude(at: t) }
    }

    /// Holds the board still at `attitude` (true heading in `yaw`).
    func hold(_ attitude: Attitude) { pose.withLock { $0 = attitude } }

    /// Goes back to tumbling.
    func resumeTumbling() { pose.withLock { $0 = nil } }
}

extension CalibrationSensor {
    /// A vehicle turning slow full circles, one a minute, rolling and pitching within ±3°.
    static let circles = AttitudeScenario(name: "vehicle circles") { t in
        Attitude(roll: 3 * sin(2 * .pi * t / 7.3), pitch: 3 * sin(2 * .pi * t / 11.9 + 1),
                 yaw: (6 * t).truncatingRemainder(dividingBy: 360))
    }
}

/// The sensor a calibration reads, with its clock: the system clock for hardware; for the simulator
/// a clock that may run `speed` times faster than real time (so tests and demos need not wait a
/// minute for a full tumble), and the simulated hand.
final class CalibrationSensor {
    let source: SensorSource
    let hand: SimulatedHand?
    let world: SimulatedWorld?
    /// Sensor seconds per real second (1 for hardware).
    let speed: Double
    /// The session's time (the sensor's clock runs `speed` times faster when simulated).
    let time: any TimeSource
    /// Monotonic seconds on the sensor's clock.
    let now: @Sendable () -> Double

    init(source: SensorSource, hand: SimulatedHand?, world: SimulatedWorld?, speed: Double, time: any TimeSource,
         now: @escaping @Sendable () -> Double) {
        self.source = source; self.hand = hand; self.world = world; self.speed = speed; self.time = time; self.now = now
    }

    var identity: SensorIdentity { profileIdentity(for: source.info, simulated: source.isSimulated) }

    /// A reader on the sensor's clock whose waits a signal cuts short.
    func makeReader(inbox: ControlInbox) -> MagnetometerReader {
        let speed = self.speed
        let time = self.time
        return source.makeReader(clock: ReaderClock(
            monotonic: now, wall: { time.wall() }, sleep: { inbox.wait(seconds: max(0, $0) / speed) }))
    }

    /// Opens the hardware or, with `--simulate`, the simulator with the calibration tumble (and the
    /// same board distortion `watch --simulate` uses, so the profile fits it).
    /// - Parameter vehicle: simulate a compass fixed in a vehicle turning slow circles (one a
    ///   minute, roll and pitch within ±3°) instead of a hand tumbling the board.
    static func open(_ selection: SensorSelection, speed: Double, time: any TimeSource,
                     vehicle: Bool = false) throws -> CalibrationSensor {
        guard selection.simulate else {
            return CalibrationSensor(source: try selection.open(time: time), hand: nil, world: nil, speed: 1,
                                     time: time, now: { time.monotonic() })
        }
        var setup = selection.simulationSetup(wall: time.wall())
        let hand = SimulatedHand(tumble: vehicle ? Self.circles : .tumble(period: 40, field: setup.world.field))
        setup.scenario = hand.scenario
        let rate = speed.isFinite && speed >= 1 ? speed : 1
        let start = time.monotonic()
        let now: @Sendable () -> Double = { start + (time.monotonic() - start) * rate }
        let rig = SimulatedRig(setup: setup, now: now)
        let chip = try DriverFactory.open(setup.chip, bus: rig.bus, address: rig.address, now: rig.now)
        var accelerometer: (any Accelerometer)?
        if let kind = setup.accelerometer, let address = rig.accelerometerAddress {
            accelerometer = try AccelerometerFactory.open(kind, bus: rig.bus, address: address)
        }
        let source = SensorSource(magnetometer: chip, accelerometer: accelerometer, orientation: setup.orientation, rig: rig)
        return CalibrationSensor(source: source, hand: hand, world: setup.world, speed: rate, time: time, now: now)
    }
}
