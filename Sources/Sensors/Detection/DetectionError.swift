import Platform

/// Why a scan found nothing to report, with what to do. All exit 69 (unavailable).
public enum DetectionError: Error, Sendable, Equatable {
    /// No `/dev/i2c-*` at all, or not the requested one.
    case noBuses(requested: Int?, present: [Int])
    /// The requested node is not an I²C adapter (ENOTTY).
    case notAnAdapter(path: String)
    /// The bus nodes exist but this user may not open them.
    case permission(paths: [String])
    /// The buses opened, but nothing acknowledged any probed address.
    case nothingAnswered(buses: [Int], addresses: [I2CAddress])

    public var message: String {
        switch self {
        case .noBuses(let requested, let present):
            let what = requested.map { "/dev/i2c-\($0) does not exist" } ?? "no I²C bus found (no /dev/i2c-*)"
            let others = present.isEmpty ? "" : " (present: " + present.map { "/dev/i2c-\($0)" }.joined(separator: ", ") + ")"
            return what + others + ".\n" + Self.enableHelp
        case .notAnAdapter(let path):
            return I2CError.notAnAdapter(path: path).message
        case .permission(let paths):
            return "permission denied opening " + paths.joined(separator: ", ") + ".\n"
                + "The I²C device nodes belong to the 'i2c' group. Add yourself to it:\n"
                + "  sudo usermod -aG i2c $USER\n"
                + "then log out and back in (or run 'newgrp i2c'). Root is not needed.\n"
                + Self.simulateHint
        case .nothingAnswered(let buses, let addresses):
            let busList = buses.map { "\($0)" }.joined(separator: ", ")
            return "nothing answered on bus \(busList) at any sensor address ("
                + addresses.map(hexAddress).joined(separator: " ") + ").\n" + Self.wiringChecklist(bus: buses.first ?? 1)
        }
    }

    /// How to switch I²C on, for a Raspberry Pi.
    public static let enableHelp = """
        On a Raspberry Pi, enable I²C and reboot:
          sudo raspi-config nonint do_i2c 0      (or: raspi-config → Interface Options → I2C)
        or add this line to /boot/firmware/config.txt (/boot/config.txt before Bookworm):
          dtparam=i2c_arm=on
        After the reboot 'ls /dev/i2c-*' shows /dev/i2c-1, the bus on header pins 3 (SDA) and 5 (SCL).
        \(simulateHint)
        """

    /// The pointer to the simulator.
    public static let simulateHint = "Without a sensor, every command runs on the simulator with --simulate "
        + "(e.g. 'lodestone watch --simulate', 'lodestone detect --simulate')."

    /// What to check when nothing answers.
    public static func wiringChecklist(bus: Int) -> String {
        """
        Wiring checklist:
          1. Power: VCC to 3.3 V (pin 1), GND to ground (pin 6). Most breakout LEDs light when powered.
          2. Data: SDA to GPIO 2 (pin 3), SCL to GPIO 3 (pin 5); swapped SDA/SCL is the commonest fault.
          3. Pull-ups: breakout boards have them; a bare chip needs 4.7 kΩ from SDA and SCL to 3.3 V.
          4. Contacts: solder the header pins; keep wires short (under 30 cm).
          5. The bus: the header pins are bus 1; 'i2cdetect -y \(bus)' lists what answers.
          6. Address straps: an SDO/AD0/CS pin may move the chip to its other address.
        \(simulateHint)
        """
    }
}

extension DetectionError: UserFacingError {
    public var exitCode: ExitCode { .unavailable }
}
