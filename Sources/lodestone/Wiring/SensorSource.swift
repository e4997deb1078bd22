import Linear
import Platform
import Sensors
import Simulation

/// The magnetometer a command reads: a real chip on `/dev/i2c-N`, or the simulator's emulated chip.
/// Either way the same driver code runs.
final class SensorSource {
    let magnetometer: any Magnetometer
    let orientation: MountingOrientation
    /// The simulation behind the bus, when simulating.
    let rig: SimulatedRig?

    var info: SensorInfo { magnetometer.info }
    var isSimulated: Bool { rig != nil }

    init(magnetometer: any Magnetometer, orientation: MountingOrientation, rig: SimulatedRig?) {
        self.magnetometer = magnetometer
        self.orientation = orientation
        self.rig = rig
    }

    /// The newest field in body axes (µT), or nil when no new sample is ready.
    func readBodyField() throws(SensorError) -> Vector3? {
        guard let chip = try magnetometer.readIfReady() else { return nil }
        return orientation.toBody(chip)
    }

    /// Opens the simulator.
    static func simulated(setup: SimulationSetup = .default) throws(SensorError) -> SensorSource {
        let rig = SimulatedRig(setup: setup, now: { Clock.monotonic() })
        let chip = try QMC5883L(bus: rig.bus, address: rig.address)
        return SensorSource(magnetometer: chip, orientation: setup.orientation, rig: rig)
    }

    /// Finds a real sensor: the given bus, or every `/dev/i2c-*`. Throws `SensorSetupError` with what
    /// each bus and address answered when there is none.
    static func hardware(bus requested: Int?) throws(SensorSetupError) -> SensorSource {
        let buses: [Int]
        if let requested {
            buses = [requested]
        } else {
            buses = (Files.list("/dev") ?? []).compactMap { name in
                name.hasPrefix("i2c-") ? Int(name.dropFirst(4)) : nil
            }
            if buses.isEmpty { throw .noBuses }
        }
        var findings: [String] = []
        for number in buses {
            let bus: LinuxI2CBus
            do {
                bus = try LinuxI2CBus(number: number)
            } catch {
                if case .permissionDenied = error { throw .permission(path: "/dev/i2c-\(number)") }
                if case .busNotFound = error, requested != nil { throw .noBuses }
                findings.append("bus \(number): \(error.message)")
                continue
            }
            do {
                let chip = try QMC5883L(bus: bus)
                return SensorSource(magnetometer: chip, orientation: .componentSideUp, rig: nil)
            } catch {
                findings.append("bus \(number), \(hexAddress(QMC5883L.defaultAddress)) (QMC5883L): " + firstLine(error.message))
            }
        }
        throw .nothingFound(findings)
    }
}

private func firstLine(_ s: String) -> String { String(s.split(separator: "\n").first ?? "") }

/// Why no sensor could be opened, with what to do.
enum SensorSetupError: UserFacingError {
    case noBuses
    case permission(path: String)
    case nothingFound([String])

    var message: String {
        switch self {
        case .noBuses:
            return "no I²C bus found (no /dev/i2c-*).\n"
                + "On a Raspberry Pi enable I²C: add 'dtparam=i2c_arm=on' to /boot/firmware/config.txt (or run "
                + "'sudo raspi-config' → Interface Options → I2C) and reboot; then 'ls /dev/i2c-*' shows the bus.\n"
                + "To try Lodestone without a sensor: lodestone watch --simulate"
        case .permission(let path):
            return "permission denied opening \(path).\n"
                + "Add yourself to the i2c group: 'sudo usermod -aG i2c $USER', then log out and back in. Root is not needed.\n"
                + "To try Lodestone without a sensor: lodestone watch --simulate"
        case .nothingFound(let findings):
            return "no supported magnetometer answered. Probed:\n"
                + findings.map { "  " + $0 }.joined(separator: "\n")
                + "\nCheck the wiring (SDA pin 3, SCL pin 5, 3.3 V pin 1, GND pin 6) and run 'i2cdetect -y 1'.\n"
                + "To try Lodestone without a sensor: lodestone watch --simulate"
        }
    }

    var exitCode: ExitCode { .unavailable }
}
