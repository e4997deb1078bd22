import Geodesy
import Linear
import Geomagnetism
import Platform
import Sensors
import Simulation

/// Which sensors to read: the detected chip unless `--sensor NAME --bus N --address 0xNN` say
/// otherwise; with `--simulate`, `--sensor` picks the chip the simulator emulates.
public struct SensorSelection: Sendable, Equatable {
    public enum AccelerometerChoice: Sendable, Equatable {
        /// Use the one detection finds on the magnetometer's bus (in the simulator: the chip's own
        /// partner: LSM303AGR for the LIS2MDL, ICM-20948 for the AK09916, the LSM9DS1's own
        /// accelerometer/gyro for its magnetometer).
        case automatic
        case none
        case kind(AccelerometerKind)
    }

    /// Read the simulator's emulated chips instead of a real bus.
    public var simulate = false
    /// The magnetometer to open (or, simulating, to emulate); nil: the detected one.
    public var sensor: ChipKind?
    /// The chip the simulator emulates when `sensor` does not say.
    public static let simulatedChip = ChipKind.qmc5883l
    /// The bus to look on; nil: every bus.
    public var bus: Int?
    /// The magnetometer's address; nil: the chip's usual ones.
    public var address: I2CAddress?
    /// How the board is mounted.
    public var orientation: MountingOrientation = .componentSideUp
    /// True when the orientation was given by the user (it then overrides a profile's mounting).
    public var orientationGiven = false
    public var accelerometer: AccelerometerChoice = .automatic
    /// With the simulator: how the board moves (`AttitudeScenario.named`: table, boat, car); nil:
    /// turning on a table.
    public var scenario: String?
    /// With the simulator: where the simulated board and receiver are (`--location`); nil: Sydney.
    public var location: GeoPoint?
    /// With the simulator: changes of the magnetic environment during the run (`--sim-step-ut`), in
    /// body axes.
    public var fieldChanges: [FieldChange] = []
    /// The chip's output rate the command needs, Hz: the magnetometer runs at the slowest rate it
    /// offers at or above this, never faster than its default (`DriverFactory.open`); nil: the
    /// default. `serve` and `log` ask for their update rate (at least `serviceSampleRate`).
    public var outputRate: Double?
    /// The slowest chip a service (`serve`, `log`) reads, Hz: the attitude filter integrates the gyro
    /// once per sample, and 50 Hz keeps a rolling boat's motion well resolved.
    public static let serviceSampleRate = 50.0

    /// The vehicle the simulator moves (`--scenario boat|car|walk`); nil for the board turning on a
    /// table.
    var vehicleScenario: AttitudeScenario? {
        guard let name = scenario, name != AttitudeScenario.tableName else { return nil }
        return AttitudeScenario.named(name)
    }

    /// True for a simulated vehicle (`--scenario boat|car|walk`), not the board turning on a table.
    public var simulatesVehicle: Bool { simulate && vehicleScenario != nil }

    public init(simulate: Bool = false, sensor: ChipKind? = nil, bus: Int? = nil, address: I2CAddress? = nil,
                orientation: MountingOrientation? = nil, accelerometer: AccelerometerChoice = .automatic) {
        self.simulate = simulate
        self.sensor = sensor
        self.bus = bus
        self.address = address
        self.orientation = orientation ?? .componentSideUp
        self.orientationGiven = orientation != nil
        self.accelerometer = accelerometer
    }

    /// Opens the simulator (on `time`) or the hardware.
    public func open(time: any TimeSource) throws -> SensorSource {
        simulate ? try SensorSource.simulated(setup: simulationSetup(wall: time.wall()), time: time, outputRate: outputRate) : try openHardware()
    }

    /// The simulation this selection describes, with the Earth's field at the simulated place on the
    /// date `wall` (Unix seconds).
    public func simulationSetup(wall: Double) -> SimulationSetup {
        let chip = sensor ?? Self.simulatedChip
        var setup = SimulationSetup(orientation: orientation, chip: chip)
        setup.fieldChanges = fieldChanges
        if let vehicle = vehicleScenario {
            setup.scenario = vehicle
            // A cheap MEMS gyro's bias, which the attitude filter has to learn while moving.
            setup.gyroBias = Vector3(0.3, -0.2, 0.5)
        }
        // Earth's field at the simulated place today, from the same model the heading filter expects.
        let place: (latitude: Double, longitude: Double) = location.map { ($0.latitude, $0.longitude) }
            ?? (SimulatedWorld.sydney.latitude, SimulatedWorld.sydney.longitude)
        if let year = decimalYear(unixSeconds: wall),
           let world = SimulatedWorld.wmm(latitude: place.latitude, longitude: place.longitude, decimalYear: year) {
            setup.world = world
        } else {
            // Outside the model's years: the default field, at the place asked for.
            setup.world.latitude = place.latitude
            setup.world.longitude = place.longitude
        }
        switch accelerometer {
        case .none: setup.accelerometer = nil
        case .kind(let kind): setup.accelerometer = kind
        case .automatic:
            // Each chip's usual partner; a GY-271 (QMC5883L) is commonly paired with a GY-521 (MPU-6050).
            switch chip {
            case .lis2mdl: setup.accelerometer = .lsm303agr
            case .ak09916: setup.accelerometer = .icm20948
            case .lsm9ds1: setup.accelerometer = .lsm9ds1
            case .ak8963: setup.accelerometer = .mpu9250
            case .bno055: setup.accelerometer = .bno055
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
        let chip = try DriverFactory.open(kind, bus: i2c, address: chosen.address, outputRate: outputRate)
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
                if case .notAnAdapter(let path) = error, bus != nil { throw DetectionError.notAnAdapter(path: path) }
                findings.append("bus \(number): " + firstLine(error.message))
                continue
            }
            for candidate in address.map({ [$0] }) ?? DriverFactory.addresses(for: sensor) {
                do {
                    let chip = try DriverFactory.open(sensor, bus: i2c, address: candidate, outputRate: outputRate)
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

