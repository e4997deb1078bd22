import Linear
import Sensors

/// The accelerometer and gyroscope of an emulated ICM-20948: plugged into `ICM20948Emulator` as its
/// `core`, it sees every write and answers the registers the bypass host does not own.
///
/// Implements the register banks (REG_BANK_SEL), power-on sleep and DEVICE_RESET, PWR_MGMT_2's
/// accelerometer and gyro disable bits, bank 2's ACCEL_SMPLRT_DIV (rate = 1125 / (1 + div) Hz),
/// ACCEL_CONFIG and GYRO_CONFIG_1 full scales, big-endian data at 0x2D–0x32 (accelerometer) and
/// 0x33–0x38 (gyro, zero while disabled) with auto-increment, and RAW_DATA_0_RDY_INT (INT_STATUS_1
/// bit 0) cleared by reading it. The gyro is sampled with the accelerometer.
///
/// ```swift
/// let core = ICM20948AccelerometerCore(physics: physics)
/// bus.attach(ICM20948Emulator(bus: bus, magnetometer: ak, core: core), at: 0x69)
/// let accel = try ICM20948Accelerometer(bus: bus)
/// ```
public final class ICM20948AccelerometerCore: AccelerometerEmulatorBase, RegisterDevice {
    typealias R = ICM20948Accelerometer.Register
    typealias B2 = ICM20948Accelerometer.Bank2
    public private(set) var bank0 = [UInt8](repeating: 0, count: 0x80)
    public private(set) var bank2 = [UInt8](repeating: 0, count: 0x80)
    private var bank = 0
    /// `noise`: RMS g per axis (datasheet: 230 µg/√Hz, about 2 mg at a 50 Hz bandwidth).
    /// `gyroNoise`: RMS °/s per axis (datasheet: 0.015 °/s/√Hz, about 0.09 °/s at 24 Hz).
    public init(physics: PhysicsSource, noise: Double = 0.002, gyroNoise: Double = 0.09, seed: UInt64 = 9) {
        super.init(sampler: AccelerometerSampler(physics: physics, noise: noise, seed: seed, gyroNoise: gyroNoise))
        reset()
    }

    private func reset() {
        bank0 = [UInt8](repeating: 0, count: 0x80)
        bank2 = [UInt8](repeating: 0, count: 0x80)
        bank0[Int(R.whoAmI)] = ICM20948Accelerometer.identity
        bank0[Int(R.powerManagement1)] = 0x41   // asleep, auto clock
        bank2[Int(B2.accelConfig)] = 0x01
        bank = 0
        resetSampler()
        updateRate()
    }

    private var asleep: Bool { bank0[Int(R.powerManagement1)] & 0x40 != 0 }
    private var accelerometerOn: Bool { bank0[Int(R.powerManagement2)] & 0x38 == 0 }
    private var gyroOn: Bool { bank0[Int(R.powerManagement2)] & 0x07 == 0 }

    private func updateRate() {
        let divider = Int(bank2[Int(B2.accelRateDivider1)] & 0x0F) << 8 | Int(bank2[Int(B2.accelRateDivider2)])
        setSampleRate(1125 / (1 + Double(divider)))
    }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < bank0.count else { return }
        if register == R.bankSelect {
            bank = Int(value >> 4) & 0b11
            bank0[Int(R.bankSelect)] = value & 0x30
            return
        }
        if bank == 0 && register == R.powerManagement1 && value & 0x80 != 0 { reset(); return }
        if asleep && !(bank == 0 && register == R.powerManagement1) { return }
        switch bank {
        case 0:
            let readOnly = register == R.whoAmI || register == R.interruptStatus1 || (R.accelXHigh...0x3A).contains(register)
            if !readOnly { bank0[Int(register)] = value }
        case 2:
            bank2[Int(register)] = value
            if register == B2.accelRateDivider1 || register == B2.accelRateDivider2 { updateRate() }
        default:
            break
        }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var register = Int(start)
        for _ in 0..<count {
            guard register < bank0.count else { out.append(0); register += 1; continue }
            if bank == 0 && (register == Int(R.interruptStatus1) || register == Int(R.accelXHigh)
                                || register == Int(R.gyroXHigh)) { updateSample() }
            if register == Int(R.bankSelect) {
                out.append(bank0[register])
            } else {
                out.append(bank == 0 ? bank0[register] : (bank == 2 ? bank2[register] : 0))
            }
            if bank == 0 && register == Int(R.interruptStatus1) { bank0[register] &= ~0x01 }
            register += 1
        }
        return out
    }

    private func updateSample() {
        guard !asleep, accelerometerOn, let motion = motionIfDue() else { return }
        let range = ICM20948Accelerometer.Range(rawValue: (bank2[Int(B2.accelConfig)] >> 1) & 0b11) ?? .g2
        storeAccelerometerWords(motion.acceleration, perG: range.countsPerG, bits: 16, littleEndian: false,
                                into: &bank0, at: Int(R.accelXHigh))
        let gyroRange = ICM20948Accelerometer.GyroRange(rawValue: (bank2[Int(B2.gyroConfig1)] >> 1) & 0b11) ?? .dps250
        storeAccelerometerWords(gyroOn ? motion.rotationRate : .zero, perG: gyroRange.countsPerDegreePerSecond,
                                bits: 16, littleEndian: false, into: &bank0, at: Int(R.gyroXHigh))
        if bank0[Int(R.interruptEnable1)] & 0x01 != 0 { bank0[Int(R.interruptStatus1)] |= 0x01 }
    }
}
