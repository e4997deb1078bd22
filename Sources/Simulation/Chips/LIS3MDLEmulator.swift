import Linear
import Sensors

/// A register-level LIS3MDL: the driver talks to it exactly as to the real chip.
///
/// Implements WHO_AM_I, power-on defaults (power-down), soft reset, continuous and single modes, the
/// data rate (DO bits, FAST_ODR by performance mode), the four full scales, saturation at the 16-bit
/// rails, ZYXDA cleared by reading the data and ZYXOR when an unread sample is overwritten, noise by
/// performance mode, and the I²C rule that a multi-byte read auto-increments only when bit 7 of the
/// register address is set (otherwise every byte repeats the first register). With `model: .lsm9ds1`
/// it is the LSM9DS1's magnetometer: its sensitivity, and the die's (x, −y, −z) of the physics field,
/// which is given in the accelerometer/gyro's axes.
///
/// ```swift
/// bus.attach(LIS3MDLEmulator(physics: physics), at: 0x1C)
/// let chip = try LIS3MDL(bus: bus)
/// ```
public final class LIS3MDLEmulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = LIS3MDL.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x40)

    public let model: LIS3MDL.Model
    public var chip: ChipKind { model.chip }

    /// `noise`: RMS µT per axis (nil: the datasheet figure for the configured performance mode).
    public init(physics: PhysicsSource, noise: Double? = nil, seed: UInt64 = 1, model: LIS3MDL.Model = .lis3mdl) {
        self.model = model
        super.init(sampler: MagneticSampler(physics: physics, fixedNoise: noise, seed: seed))
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x40)
        registers[Int(R.whoAmI)] = LIS3MDL.identity
        registers[Int(R.control1)] = 0x10
        registers[Int(R.control3)] = 0x03   // power-down
        registers[Int(R.interruptConfig)] = 0xE8
        sampler.reset()
        applyConfiguration()
    }

    private var control1: UInt8 { registers[Int(R.control1)] }
    private var mode: LIS3MDL.PerformanceMode { LIS3MDL.PerformanceMode(rawValue: (control1 >> 5) & 0b11) ?? .lowPower }
    private var range: LIS3MDL.Range { LIS3MDL.Range(rawValue: (registers[Int(R.control2)] >> 5) & 0b11) ?? .gauss4 }
    private var measurementMode: UInt8 { registers[Int(R.control3)] & 0b11 }

    private func applyConfiguration() {
        let rate: LIS3MDL.Rate = control1 & 0x02 != 0 ? .fast : (LIS3MDL.Rate(rawValue: (control1 >> 2) & 0b111) ?? .hz10)
        sampler.setRate(rate.hertz(in: mode))
        // Datasheet, ultra-high-performance at ±4 G: 3.2 mG on X and Y, 4.1 mG on Z.
        let scale = mode.noise / 0.35
        sampler.useDatasheetNoise(Vector3(0.32 * scale, 0.32 * scale, 0.41 * scale))
    }

    public func write(register raw: UInt8, value: UInt8) {
        let register = raw & 0x7F
        guard (R.control1...R.control5).contains(register) || (0x30...0x33).contains(register) else { return }
        if register == R.control2 && value & LIS3MDL.Control2.softReset != 0 { reset(); return }
        registers[Int(register)] = value & (register == R.control2 ? ~LIS3MDL.Control2.reboot : 0xFF)
        if register == R.control1 || register == R.control3 { applyConfiguration() }
        if register == R.control3 { sampler.reset() }
    }

    public func read(start raw: UInt8, count: Int) -> [UInt8] {
        updateSample()
        let increments = raw & LIS3MDL.autoIncrement != 0
        var register = Int(raw & 0x7F)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var readData = false
        for _ in 0..<count {
            out.append(register < registers.count ? registers[register] : 0)
            if (Int(R.outXL)...Int(R.outXL) + 5).contains(register) { readData = true }
            if increments { register += 1 }
        }
        if readData { registers[Int(R.status)] = 0 }   // reading the output clears ZYXDA and ZYXOR
        return out
    }

    private func updateSample() {
        guard measurementMode == 0b00 || measurementMode == 0b01 else { return }
        guard let sample = sampler.sampleIfDue() else { return }
        let field = model.boardAxes(sample)
        if measurementMode == 0b01 { registers[Int(R.control3)] |= 0b11 }   // single: then power-down
        let countsPerMicrotesla = model.countsPerGauss(range) / 100
        for axis in 0..<3 {
            let bytes = wordBytes(clampedCount(field[axis] * countsPerMicrotesla, -32768...32767), littleEndian: true)
            registers[Int(R.outXL) + 2 * axis] = bytes[0]
            registers[Int(R.outXL) + 2 * axis + 1] = bytes[1]
        }
        let status = registers[Int(R.status)]
        let overrun: UInt8 = status & LIS3MDL.Status.xyzDataAvailable != 0 ? 0xF0 : 0   // ZYXOR, ZOR, YOR, XOR
        registers[Int(R.status)] = overrun | 0x0F   // ZYXDA, ZDA, YDA, XDA
    }
}
