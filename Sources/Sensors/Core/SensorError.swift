import Platform

/// Errors from a sensor driver or the sample reader.
public enum SensorError: Error, Equatable, Sendable {
    /// The bus failed (see `I2CError`).
    case bus(I2CError)
    /// The chip at the address is not the one expected.
    case wrongChip(expected: ChipKind, bus: Int, address: I2CAddress, evidence: String)
    /// The field exceeded the measurement range; the sample was dropped.
    case overflow(ChipKind)
    /// Data-ready never came within the timeout.
    case dataNotReady(ChipKind, seconds: Double)
    /// The accelerometer at the address is not the one expected.
    case wrongAccelerometer(expected: AccelerometerKind, bus: Int, address: I2CAddress, evidence: String)
    /// An accelerometer axis sat at the end of its range (a shock or vibration); the sample was dropped.
    case accelerometerSaturated(AccelerometerKind)
    /// A gyroscope axis sat at the end of its range (spinning faster than the range); the sample was dropped.
    case gyroscopeSaturated(AccelerometerKind)

    public var message: String {
        switch self {
        case .bus(let e): return e.message
        case .wrongChip(let expected, let bus, let address, let evidence):
            return "the chip on bus \(bus) at \(hexAddress(address)) is not a \(expected.displayName) (\(evidence)).\n"
                + "Run 'lodestone detect' to see what is there, or pass the right --sensor."
        case .overflow(let chip):
            return "\(chip.displayName) overflow: the field is beyond the chip's range (a magnet nearby?); sample dropped"
        case .dataNotReady(let chip, let s):
            return "\(chip.displayName) produced no data for \(s) s; check the wiring and power"
        case .wrongAccelerometer(let expected, let bus, let address, let evidence):
            return "the chip on bus \(bus) at \(hexAddress(address)) is not a \(expected.displayName) accelerometer (\(evidence)).\n"
                + "Run 'lodestone detect' to see what is there, or pass the right --accelerometer."
        case .accelerometerSaturated(let kind):
            return "\(kind.displayName) accelerometer saturated (a shock or strong vibration); sample dropped"
        case .gyroscopeSaturated(let kind):
            return "\(kind.displayName) gyroscope saturated (turning faster than its range); sample dropped"
        }
    }

    /// Exit code when this error ends the program.
    public var exitCode: ExitCode {
        switch self {
        case .bus(.permissionDenied): return .unavailable
        case .bus, .wrongChip, .wrongAccelerometer, .dataNotReady: return .unavailable
        case .overflow, .accelerometerSaturated, .gyroscopeSaturated: return .dataError
        }
    }
}

extension SensorError: UserFacingError {}
extension I2CError: UserFacingError {
    public var exitCode: ExitCode { .unavailable }
}
