import Geomagnetism
import Options
import Platform
import Sensors
import Simulation

/// The options every command that reads the magnetometer accepts. Add them to a `CommandSpec` and
/// open the sensors with `openSensorSource(arguments)`.
///
/// ```swift
/// static let spec = CommandSpec(name: "watch", abstract: "…", options: sensorOptions + [Option("once", help: "…")])
/// let source = try openSensorSource(arguments)
/// ```
let sensorOptions: [Option] = [
    Option("simulate", help: "use the built-in simulator instead of a real sensor"),
    Option("sensor", value: "NAME", help: "magnetometer: " + ChipKind.allCases.map(\.rawValue).joined(separator: ", ")
        + " (default: the detected chip; with --simulate: the chip to emulate, default qmc5883l)"),
    Option("bus", value: "N", help: "I²C bus number (/dev/i2c-N); default: scan every bus"),
    Option("address", value: "0xNN", help: "I²C address of the magnetometer (default: the chip's usual one)"),
    Option("orientation", value: "NAME", help: "how the board is mounted, e.g. x-forward-z-up (default: flat, "
        + "components up, X arrow forward), x-right-z-down, yaw90, roll180; list in hardware/README.md"),
    Option("accelerometer", value: "NAME", help: "accelerometer for tilt: "
        + AccelerometerKind.allCases.map(\.rawValue).joined(separator: ", ") + ", none (default: the detected one)"),
]

/// Opens the sensors the command line asks for (see `SensorSelection`).
func openSensorSource(_ arguments: ParsedArguments) throws -> SensorSource {
    try SensorSelection(arguments).open()
}

/// Which sensors to read: the detected chip unless `--sensor NAME --bus N --address 0xNN` say
/// otherwise; with `--simulate`, `--sensor` picks the chip the simulator emulates.
struct SensorSelection {
    enum AccelerometerChoice: Equatable {
        /// Use the one detection finds on the magnetometer's bus (in the simulator: the chip's own
        /// partner, LSM303AGR for the LIS2MDL and ICM-20948 for the AK09916).
        case automatic
        case none
        case kind(AccelerometerKind)
    }

    var simulate = false
    var sensor: ChipKind?
    var bus: Int?
    var address: I2CAddress?
    var orientation: MountingOrientation = .componentSideUp
    var accelerometer: AccelerometerChoice = .automatic

    init() {}

    /// Reads and validates the `sensorOptions` from parsed arguments.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        simulate = arguments.flag("simulate")
        if let text = arguments.string("sensor") {
            guard let kind = ChipKind(rawValue: text.lowercased()) else {
                throw .invalidValue(option: "sensor", value: text,
                                    expected: "one of " + ChipKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            sensor = kind
        }
        bus = try arguments.int("bus", in: 0...255)
        if let value = try arguments.int("address", in: 0...0x7F) {
            guard (0x03...0x77).contains(value) else {
                throw .invalidValue(option: "address", value: arguments.string("address") ?? "",
                                    expected: "a 7-bit I²C address from 0x03 to 0x77")
            }
            address = I2CAddress(value)
        }
        if let text = arguments.string("orientation") {
            do {
                orientation = try MountingOrientation.named(text)
            } catch {
                var expected = "a mounting name"
                if case .unknownName(_, let suggestion?) = error { expected += " (did you mean '\(suggestion)'?)" }
                expected += "\nvalid names: " + MountingOrientation.allNamed.map(\.name).joined(separator: " ")
                    + "\naliases: " + MountingOrientation.aliases.map(\.alias).joined(separator: " ")
                throw .invalidValue(option: "orientation", value: text, expected: expected)
            }
        }
        if let text = arguments.string("accelerometer") {
            switch text.lowercased() {
            case "none": accelerometer = .none
            case "auto": accelerometer = .automatic
            default:
                guard let kind = AccelerometerKind(rawValue: text.lowercased()) else {
                    throw .invalidValue(option: "accelerometer", value: text, expected: "one of "
                        + (AccelerometerKind.allCases.map(\.rawValue) + ["none", "auto"]).joined(separator: ", "))
                }
                accelerometer = .kind(kind)
            }
        }
        if simulate && (bus != nil || address != nil) {
            throw .conflict("--bus and --address cannot be used with --simulate (the simulator has its own bus)")
        }
    }

    /// Opens the simulator or the hardware.
    func open() throws -> SensorSource {
        simulate ? try SensorSource.simulated(setup: simulationSetup()) : try openHardware()
    }

    /// The simulation this selection describes.
    func simulationSetup() -> SimulationSetup {
        let chip = sensor ?? .qmc5883l
        var setup = SimulationSetup(orientation: orientation, chip: chip)
        // Earth's field at the simulated place today, from the same model the heading filter expects.
        let place = SimulatedWorld.sydney
        if let year = decimalYear(unixSeconds: Clock.wall()),
           let world = SimulatedWorld.wmm(latitude: place.latitude, longitude: place.longitude, decimalYear: year) {
            setup.world = world
        }
        switch accelerometer {
        case .none: setup.accelerometer = nil
        case .kind(let kind): setup.accelerometer = kind
        case .automatic:
            // Each chip's usual partner; a GY-271 (QMC5883L) is commonly paired with a GY-521 (MPU-6050).
            switch chip {
            case .lis2mdl: setup.accelerometer = .lsm303agr
            case .ak09916: setup.accelerometer = .icm20948
            default: setup.accelerometer = .mpu6050
            }
        }
        return setup
    }

    private func openHardware() throws -> SensorSource {
        if let sensor { return try openNamed(sensor) }
        let detector = Detector(addresses: address.map { [$0] } ?? Detector.standardAddresses)
        let report = try SystemScan(detector: detector).run(bus: bus)
        guard let chosen = report.preferredMagnetometer, let kind = chosen.magnetometer else {
            throw SensorSetupError.noSupportedMagnetometer(report.devices)
        }
        let i2c = try LinuxI2CBus(number: chosen.bus)
        let chip = try DriverFactory.open(kind, bus: i2c, address: chosen.address)
        let accel = try openAccelerometer(on: i2c, found: report.preferredAccelerometer(onBus: chosen.bus))
        return SensorSource(magnetometer: chip, accelerometer: accel, orientation: orientation, rig: nil)
    }

    /// `--sensor NAME`: that chip at `--address` (or its usual addresses), on `--bus` (or every bus).
    private func openNamed(_ sensor: ChipKind) throws -> SensorSource {
        let present = SystemScan.devBuses()
        let buses = bus.map { [$0] } ?? present
        if buses.isEmpty { throw DetectionError.noBuses(requested: nil, present: []) }
        var findings: [String] = []
        for number in buses {
            let i2c: LinuxI2CBus
            do {
                i2c = try LinuxI2CBus(number: number)
            } catch {
                if case .permissionDenied(let path) = error { throw DetectionError.permission(paths: [path]) }
                if case .busNotFound = error, bus != nil { throw DetectionError.noBuses(requested: number, present: present) }
                findings.append("bus \(number): " + firstLine(error.message))
                continue
            }
            for candidate in address.map({ [$0] }) ?? DriverFactory.addresses(for: sensor) {
                do {
                    let chip = try DriverFactory.open(sensor, bus: i2c, address: candidate)
                    let accel = try openAccelerometer(on: i2c, found: nil)
                    return SensorSource(magnetometer: chip, accelerometer: accel, orientation: orientation, rig: nil)
                } catch {
                    findings.append("bus \(number), \(hexAddress(candidate)) (\(sensor.displayName)): "
                        + firstLine(error.message))
                }
            }
        }
        throw SensorSetupError.nothingFound(findings)
    }

    /// The accelerometer asked for; automatic means the one detection found (nil when there is none
    /// or it fails to start: the heading then assumes a level board).
    private func openAccelerometer(on bus: any I2CBus, found: DetectedDevice?) throws(SensorError) -> (any Accelerometer)? {
        switch accelerometer {
        case .none:
            return nil
        case .kind(let kind):
            var lastError: SensorError?
            for candidate in kind.addresses {
                do { return try AccelerometerFactory.open(kind, bus: bus, address: candidate) } catch { lastError = error }
            }
            if let lastError { throw lastError }
            return nil
        case .automatic:
            let row = found ?? ScanReport.preferredAccelerometerRow(
                Detector(addresses: Detector.accelerometerAddresses).scan(bus))
            guard let row, let kind = row.accelerometer else { return nil }
            return try? AccelerometerFactory.open(kind, bus: bus, address: row.address)
        }
    }
}

private func firstLine(_ s: String) -> String { String(s.split(separator: "\n").first ?? "") }
