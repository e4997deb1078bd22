import Linear
import Sensors
import Synchronization

/// A complete simulated sensor: a world, a moving board with a distorted magnetometer, and the chip
/// emulator on an `EmulatedI2CBus`. The real driver reads it.
///
/// ```swift
/// let rig = SimulatedRig(setup: SimulationSetup(chip: .lis3mdl), now: Clock.monotonic)
/// let chip = try DriverFactory.open(rig.setup.chip, bus: rig.bus, address: rig.address)
/// ```
public final class SimulatedRig {
    public let setup: SimulationSetup
    public let bus: EmulatedI2CBus
    /// The address the emulated chip answers at (the driver opens this one).
    public let address: I2CAddress
    /// The chip emulator, for tests that force a field.
    public let emulator: any EmulatedMagnetometer
    /// Where the emulated accelerometer answers, when the setup asks for one.
    public let accelerometerAddress: I2CAddress?
    /// Monotonic time at which the scenario starts.
    public let startTime: Double
    public let now: @Sendable () -> Double

    public init(setup: SimulationSetup, now: @escaping @Sendable () -> Double) {
        self.setup = setup
        self.now = now
        let start = now()
        startTime = start
        bus = EmulatedI2CBus(busNumber: 1)
        bus.recordsTrace = false
        bus.faults.now = now
        let physics = PhysicsSource(
            now: now,
            magneticField: { t in setup.chipField(atScenarioTime: t - start) },
            acceleration: { t in setup.chipAcceleration(atScenarioTime: t - start) },
            rotationRate: { t in setup.chipRotationRate(atScenarioTime: t - start) })
        (emulator, address) = MagnetometerEmulators.attach(setup.chip, to: bus, physics: physics,
                                                           noise: setup.noise, seed: setup.seed)
        if let kind = setup.accelerometer {
            accelerometerAddress = AccelerometerEmulators.attach(kind, to: bus, physics: physics,
                                                                 gyroNoise: setup.gyroNoise, seed: setup.seed)
        } else {
            accelerometerAddress = nil
        }
    }

    /// The true attitude at monotonic time `t` (for checking the estimate).
    public func attitude(at t: Double) -> Attitude { setup.scenario.attitude(at: t - startTime) }
}

/// Everything that defines a simulation run.
public struct SimulationSetup: Sendable {
    public var world: SimulatedWorld
    public var scenario: AttitudeScenario
    public var model: MagnetometerModel
    public var orientation: MountingOrientation
    /// Noise per axis in µT; nil for the chip's datasheet figure.
    public var noise: Double?
    public var seed: UInt64
    /// The magnetometer chip the rig emulates.
    public var chip: ChipKind
    /// The accelerometer the rig emulates beside it (fed from the same attitude), if any.
    public var accelerometer: AccelerometerKind?
    /// A constant gyroscope bias in °/s, chip axes (real gyros read a few tenths of a degree per second
    /// when still, and it drifts with temperature).
    public var gyroBias: Vector3 = .zero
    /// Gyroscope noise per axis in °/s; nil for the chip's datasheet figure.
    public var gyroNoise: Double?
    /// Changes of the magnetic environment during the run (`--sim-step-ut`): hard-iron steps and
    /// transients, in body axes.
    public var fieldChanges: [FieldChange] = []

    public init(world: SimulatedWorld = .sydney, scenario: AttitudeScenario = .tableTurn(),
                model: MagnetometerModel = .typicalBoard, orientation: MountingOrientation = .componentSideUp,
                noise: Double? = nil, seed: UInt64 = 1, chip: ChipKind = .qmc5883l,
                accelerometer: AccelerometerKind? = nil, gyroBias: Vector3 = .zero, gyroNoise: Double? = nil) {
        self.gyroBias = gyroBias
        self.gyroNoise = gyroNoise
        self.world = world
        self.scenario = scenario
        self.model = model
        self.orientation = orientation
        self.noise = noise
        self.seed = seed
        self.chip = chip
        self.accelerometer = accelerometer
    }

    public static let `default` = SimulationSetup()

    /// The noise-free field the chip measures (µT, chip axes) at scenario time `t`.
    public func chipField(atScenarioTime t: Double) -> Vector3 {
        let body = scenario.attitude(at: t).bodyToNED.transposed * world.field
        let distorted = model.distorted(body)
        return orientation.toChip(fieldChanges.isEmpty ? distorted : distorted + fieldChanges.field(at: t))
    }

    /// The rotation rate a gyroscope measures (°/s, chip axes, `gyroBias` included) at scenario time `t`:
    /// the body rate ω from the attitude's rate of change, Rᵀ(t − h)·R(t + h) ≈ I + [ω]ₓ·2h.
    public func chipRotationRate(atScenarioTime t: Double) -> Vector3 {
        let h = 0.001
        let delta = scenario.attitude(at: t - h).bodyToNED.transposed * scenario.attitude(at: t + h).bodyToNED
        let radiansPerSecond = Vector3(delta[2, 1] - delta[1, 2], delta[0, 2] - delta[2, 0], delta[1, 0] - delta[0, 1])
            / (4 * h)
        return orientation.toChip(radiansPerSecond * (180 / Double.pi)) + gyroBias
    }

    /// The specific force an accelerometer measures (g, chip axes) at scenario time `t`.
    public func chipAcceleration(atScenarioTime t: Double) -> Vector3 {
        // Specific force: the vehicle's own acceleration minus gravity (down), in body axes.
        orientation.toChip(scenario.attitude(at: t).bodyToNED.transposed * (scenario.acceleration(at: t) - Vector3(0, 0, 1)))
    }
}
