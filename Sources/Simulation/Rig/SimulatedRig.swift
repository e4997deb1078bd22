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
            acceleration: { t in setup.chipAcceleration(atScenarioTime: t - start) })
        (emulator, address) = MagnetometerEmulators.attach(setup.chip, to: bus, physics: physics,
                                                           noise: setup.noise, seed: setup.seed)
        if let kind = setup.accelerometer {
            accelerometerAddress = AccelerometerEmulators.attach(kind, to: bus, physics: physics, seed: setup.seed)
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

    public init(world: SimulatedWorld = .sydney, scenario: AttitudeScenario = .tableTurn(),
                model: MagnetometerModel = .typicalBoard, orientation: MountingOrientation = .componentSideUp,
                noise: Double? = nil, seed: UInt64 = 1, chip: ChipKind = .qmc5883l,
                accelerometer: AccelerometerKind? = nil) {
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
        return orientation.toChip(model.distorted(body))
    }

    /// The specific force an accelerometer measures (g, chip axes) at scenario time `t`.
    public func chipAcceleration(atScenarioTime t: Double) -> Vector3 {
        orientation.toChip(scenario.attitude(at: t).bodyToNED.transposed * Vector3(0, 0, -1))
    }
}
