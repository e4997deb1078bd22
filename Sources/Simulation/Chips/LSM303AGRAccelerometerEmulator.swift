import Linear
import Sensors

/// A register-level LSM303AGR accelerometer (address 0x19).
///
/// Implements power-down after boot, the ODR and FS fields, normal and high-resolution (left-justified)
/// output, ZYXDA cleared when the data are read, ZYXOR on overrun, and the I²C sub-address rule:
/// the register pointer only advances when bit 7 of the address is set.
///
/// ```swift
/// bus.attach(LSM303AGRAccelerometerEmulator(physics: physics), at: 0x19)
/// let accel = try LSM303AGRAccelerometer(bus: bus)
/// ```
public final class LSM303AGRAccelerometerEmulator: AccelerometerEmulatorBase, RegisterDevice {
    typealias R = LSM303AGRAccelerometer.Register
    typealias S = LSM303AGRAccelerometer.Status
    public private(set) var registers = [UInt8](repeating: 0, count: 0x40)
    /// `noise`: RMS g per axis (datasheet: about 220 µg/√Hz in high-resolution mode).
    public init(physics: PhysicsSource, noise: Double = 0.002, seed: UInt64 = 5) {
        super.init(sampler: AccelerometerSampler(physics: physics, noise: noise, seed: seed))
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x40)
        registers[Int(R.whoAmI)] = LSM303AGRAccelerometer.identity
        registers[Int(R.control1)] = 0x07   // power-down, axes enabled
        resetSampler()
    }

    private var odr: Double {
        LSM303AGRAccelerometer.Rate(rawValue: registers[Int(R.control1)] >> 4)?.hertz ?? 0
    }

    public func write(register: UInt8, value: UInt8) {
        let reg = register & 0x7F
        guard Int(reg) < registers.count, reg != R.whoAmI, reg != R.status, !(R.outXLow...0x2D).contains(reg)
        else { return }
        if reg == R.control5 && value & 0x80 != 0 { reset(); return }   // BOOT reloads the defaults
        registers[Int(reg)] = value
        if reg == R.control1 { setSampleRate(odr) }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        let increments = start & R.autoIncrement != 0
        var reg = Int(start & 0x7F)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            if reg == Int(R.status) { updateSample() }
            out.append(reg < registers.count ? registers[reg] : 0)
            if reg == Int(R.outXLow) + 5 { registers[Int(R.status)] = 0 }   // reading Z high ends the sample
            if increments { reg += 1 }
        }
        return out
    }

    private func updateSample() {
        guard odr > 0, let g = accelerationIfDue() else { return }
        let control4 = registers[Int(R.control4)]
        let range = LSM303AGRAccelerometer.Range(rawValue: (control4 >> 4) & 0b11) ?? .g2
        let highResolution = control4 & 0x08 != 0
        // Normal mode is 10-bit at four times the high-resolution step.
        let bits = highResolution ? 12 : 10
        let perG = 1 / (range.gPerCount * (highResolution ? 1 : 4))
        storeAccelerometerWords(g, perG: perG, bits: bits, littleEndian: true, into: &registers, at: Int(R.outXLow))
        var status = registers[Int(R.status)]
        if status & S.dataReady != 0 { status |= S.overrun }
        registers[Int(R.status)] = status | S.dataReady | 0x07
    }
}
