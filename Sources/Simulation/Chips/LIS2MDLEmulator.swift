import Linear
import Sensors

/// A register-level LIS2MDL (also standing in for the LSM303AGR magnetometer and the IIS2MDC).
///
/// Implements WHO_AM_I, power-on idle mode, soft reset, continuous and single modes at 10–100 Hz,
/// low-power noise, 1.5 mG/LSB with saturation at the 16-bit rails, Zyxda cleared by reading the data
/// and Zyxor on overwrite, the user hard-iron offset registers (subtracted from the output), and a
/// bridge offset that shows in the output unless offset cancellation (CFG_REG_B.OFF_CANC) is on.
/// Multi-byte reads auto-increment.
///
/// ```swift
/// bus.attach(LIS2MDLEmulator(physics: physics), at: 0x1E)
/// let chip = try LIS2MDL(bus: bus)
/// ```
public final class LIS2MDLEmulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = LIS2MDL.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x70)
    /// The sensor bridge's own offset, µT; removed by the chip when offset cancellation is on.
    public var bridgeOffset = Vector3(4.5, -2.5, 3.0)

    public var chip: ChipKind { .lis2mdl }

    /// `noise`: RMS µT per axis (nil: datasheet, 3 mG high-resolution, 4.5 mG low-power).
    public init(physics: PhysicsSource, noise: Double? = nil, seed: UInt64 = 1) {
        super.init(sampler: MagneticSampler(physics: physics, fixedNoise: noise, seed: seed))
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x70)
        registers[Int(R.whoAmI)] = LIS2MDL.identity
        registers[Int(R.configA)] = 0x03   // idle
        registers[Int(R.interruptControl)] = 0xE0
        sampler.reset()
        applyConfiguration()
    }

    private var configA: UInt8 { registers[Int(R.configA)] }
    private var measurementMode: UInt8 { configA & 0b11 }

    private func applyConfiguration() {
        let rate = LIS2MDL.Rate(rawValue: (configA >> 2) & 0b11) ?? .hz10
        sampler.setRate(rate.hertz)
        let noise = configA & LIS2MDL.ConfigA.lowPower != 0 ? 0.45 : 0.3
        sampler.useDatasheetNoise(Vector3(noise, noise, noise))
    }

    public func write(register: UInt8, value: UInt8) {
        let writable = (R.offsetXL...R.offsetXL + 5).contains(register) || (R.configA...0x66).contains(register)
        guard writable else { return }
        if register == R.configA && value & LIS2MDL.ConfigA.softReset != 0 { reset(); return }
        registers[Int(register)] = value & (register == R.configA ? ~LIS2MDL.ConfigA.reboot : 0xFF)
        if register == R.configA {
            applyConfiguration()
            sampler.reset()
        }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        updateSample()
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var readData = false
        for i in 0..<count {
            let register = Int(start) + i
            out.append(register < registers.count ? registers[register] : 0)
            if (Int(R.outXL)...Int(R.outXL) + 5).contains(register) { readData = true }
        }
        if readData { registers[Int(R.status)] = 0 }
        return out
    }

    private func userOffset(_ axis: Int) -> Double {
        let low = registers[Int(R.offsetXL) + 2 * axis], high = registers[Int(R.offsetXL) + 2 * axis + 1]
        return Double(Int16(bitPattern: UInt16(high) << 8 | UInt16(low))) * LIS2MDL.microteslaPerCount
    }

    private func updateSample() {
        guard measurementMode == 0b00 || measurementMode == 0b01 else { return }
        guard var field = sampler.sampleIfDue() else { return }
        if measurementMode == 0b01 { registers[Int(R.configA)] |= 0b11 }   // single: then idle
        if registers[Int(R.configB)] & LIS2MDL.ConfigB.offsetCancellation == 0 { field += bridgeOffset }
        for axis in 0..<3 {
            let counts = (field[axis] - userOffset(axis)) / LIS2MDL.microteslaPerCount
            let bytes = wordBytes(clampedCount(counts, -32768...32767), littleEndian: true)
            registers[Int(R.outXL) + 2 * axis] = bytes[0]
            registers[Int(R.outXL) + 2 * axis + 1] = bytes[1]
        }
        let status = registers[Int(R.status)]
        let overrun: UInt8 = status & LIS2MDL.Status.xyzDataAvailable != 0 ? 0xF0 : 0
        registers[Int(R.status)] = overrun | 0x0F
    }
}
