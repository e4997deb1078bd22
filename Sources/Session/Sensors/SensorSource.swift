import Linear
import Platform
import Sensors
import Simulation

/// The sensors a command reads: a real chip on `/dev/i2c-N`, or the simulator's emulated chip, plus an
/// optional accelerometer for tilt. Either way the same driver code runs. Open one with
/// `SensorSelection.open(time:)`.
///
/// ```swift
/// let source = try SensorSelection(simulate: true).open(time: runtime.time)
/// let reader = source.makeReader(clock: ReaderClock(runtime.time, inbox: inbox))
/// if let sample = reader.next(timeout: 0.1) { use(sample.field) }   // µT, body axes
/// ```
public final class SensorSource {
    public let magnetometer: any Magnetometer
    public let accelerometer: (any Accelerometer)?
    public let orientation: MountingOrientation
    /// The simulation behind the bus, when simulating.
    public let rig: SimulatedRig?

    public var info: SensorInfo { magnetometer.info }
    public var isSimulated: Bool { rig != nil }

    public init(magnetometer: any Magnetometer, accelerometer: (any Accelerometer)? = nil,
         orientation: MountingOrientation, rig: SimulatedRig?) {
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
        self.orientation = orientation
        self.rig = rig
    }

    /// A reader over this source's chips (retries, reconnects, pacing, status; see `MagnetometerReader`).
    public func makeReader(clock: ReaderClock, policy: ReaderPolicy = ReaderPolicy()) -> MagnetometerReader {
        MagnetometerReader(magnetometer: magnetometer, orientation: orientation, accelerometer: accelerometer,
                           policy: policy, clock: clock)
    }

    /// Opens the simulator with the chips `setup` names, moving on `time`; `outputRate` as in
    /// `DriverFactory.open`.
    public static func simulated(setup: SimulationSetup = .default, time: any TimeSource,
                                 outputRate: Double? = nil) throws(SensorError) -> SensorSource {
        let rig = SimulatedRig(setup: setup, now: { time.monotonic() })
        // The emulated chips switch modes at once: nothing to wait for.
        let chip = try DriverFactory.open(setup.chip, bus: rig.bus, address: rig.address, outputRate: outputRate, now: rig.now,
                                          sleep: { _ in })
        var accelerometer: (any Accelerometer)?
        if let kind = setup.accelerometer, let address = rig.accelerometerAddress {
            accelerometer = try AccelerometerFactory.open(kind, bus: rig.bus, address: address)
        }
        return SensorSource(magnetometer: chip, accelerometer: accelerometer, orientation: setup.orientation, rig: rig)
    }
}

/// Why no magnetometer could be opened although the bus works, with what to do. Exit 69.
public enum SensorSetupError: UserFacingError {
    /// A chip named with --sensor did not answer where it was looked for.
    case nothingFound([String])
    /// Detection found devices, but no supported magnetometer among them.
    case noSupportedMagnetometer([DetectedDevice])

    public var message: String {
        switch self {
        case .nothingFound(let findings):
            return "the requested magnetometer did not answer. Probed:\n"
                + findings.map { "  " + $0 }.joined(separator: "\n") + "\n"
                + "Run 'lodestone detect' to see what is on the bus, or check --sensor, --bus and --address.\n"
                + DetectionError.simulateHint
        case .noSupportedMagnetometer(let devices):
            return "no supported magnetometer was identified. Found:\n"
                + devices.map { d in
                    "  bus \(d.bus) \(hexAddress(d.address)): \(d.chip.name) (\(d.chip.category), \(d.confidence.rawValue) confidence)"
                }.joined(separator: "\n") + "\n"
                + "Supported: " + ChipKind.allCases.map(\.rawValue).joined(separator: ", ") + ".\n"
                + "Run 'lodestone detect' for the evidence, or name the chip: --sensor NAME --bus N --address 0xNN.\n"
                + DetectionError.simulateHint
        }
    }

    public var exitCode: ExitCode { .unavailable }
}
