import Linear
import Sensors

/// A register-level BMM150 whose raw counts are what a real part with `trim` would output.
///
/// Implements suspend mode after power-on (only 0x4B answers; other registers read 0), the power bit,
/// soft reset, normal mode at the data rate (capped by the repetitions' maximum rate), forced mode,
/// noise from the repetitions (fitted to the datasheet presets), the packed 13/13/15/14-bit data with
/// self-test and data-ready flags, DRDY cleared by reading the data, and the overflow codes. Raw X/Y/Z
/// come from inverting Bosch's trim compensation at the Hall resistance `hallResistance`, so the
/// driver's compensation recovers the physical field.
///
/// ```swift
/// bus.attach(BMM150Emulator(physics: physics), at: 0x10)
/// let chip = try BMM150(bus: bus)
/// ```
public final class BMM150Emulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = BMM150.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x72)
    private var powered = false
    /// The factory trim this part carries (values in the range real parts show).
    public let trim: BMM150Trim
    /// RHALL, which real parts report near `trim.xyz1` (it moves with temperature).
    public var hallResistance: Int

    /// A typical part's trim, with every term non-zero so the whole compensation is exercised.
    public static let typicalTrim = BMM150Trim(x1: 3, y1: -2, x2: 26, y2: 27, z1: 24747, z2: 763, z3: -66, z4: 18,
                                               xy1: 29, xy2: -3, xyz1: 6853)

    public var chip: ChipKind { .bmm150 }

    /// `noise`: RMS µT per axis (nil: from the repetitions, as the datasheet presets).
    public init(physics: PhysicsSource, trim: BMM150Trim = BMM150Emulator.typicalTrim, noise: Double? = nil,
                seed: UInt64 = 1) {
        self.trim = trim
        hallResistance = Int(trim.xyz1) - 151
        super.init(sampler: MagneticSampler(physics: physics, fixedNoise: noise, seed: seed))
        registers[Int(R.powerControl)] = 0x00   // suspended until the power bit is set
    }

    /// Defaults after power-up or soft reset: sleep mode, 10 Hz, self-test flags set, trim loaded.
    private func loadDefaults() {
        registers = [UInt8](repeating: 0, count: 0x72)
        registers[Int(R.chipID)] = BMM150.identity
        registers[Int(R.dataXL)] = 0x01
        registers[Int(R.dataXL) + 2] = 0x01
        registers[Int(R.dataXL) + 4] = 0x01
        registers[Int(R.powerControl)] = PowerBit.on
        registers[Int(R.operationMode)] = 0x06
        registers[Int(R.interruptEnable)] = 0x3F
        registers[0x4E] = 0x07
        writeTrim()
        sampler.reset()
        applyConfiguration()
    }

    private enum PowerBit { static let on: UInt8 = 0x01 }

    private func writeTrim() {
        func put(_ register: Int, _ value: UInt16) {
            registers[register] = UInt8(value & 0xFF)
            registers[register + 1] = UInt8(value >> 8)
        }
        registers[0x5D] = UInt8(bitPattern: trim.x1)
        registers[0x5E] = UInt8(bitPattern: trim.y1)
        put(0x62, UInt16(bitPattern: trim.z4))
        registers[0x64] = UInt8(bitPattern: trim.x2)
        registers[0x65] = UInt8(bitPattern: trim.y2)
        put(0x68, UInt16(bitPattern: trim.z2))
        put(0x6A, trim.z1)
        put(0x6C, trim.xyz1 | 0x8000)   // the reserved top bit reads 1 on this part
        put(0x6E, UInt16(bitPattern: trim.z3))
        registers[0x70] = UInt8(bitPattern: trim.xy2)
        registers[0x71] = trim.xy1
    }

    private var opMode: UInt8 { (registers[Int(R.operationMode)] >> 1) & 0b11 }

    private func applyConfiguration() {
        let nXY = 1 + 2 * Double(registers[Int(R.repetitionsXY)]), nZ = 1 + Double(registers[Int(R.repetitionsZ)])
        let maximum = 1 / (145e-6 * nXY + 500e-6 * nZ + 980e-6)
        let rate = BMM150.Rate(rawValue: (registers[Int(R.operationMode)] >> 3) & 0b111) ?? .hz10
        sampler.setRate(min(rate.hertz, maximum))
        let xy = 1.0 * (3 / nXY).squareRoot(), z = 1.4 * (3 / nZ).squareRoot()
        sampler.useDatasheetNoise(Vector3(xy, xy, z))
    }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < registers.count else { return }
        if register == R.powerControl {
            guard value & PowerBit.on != 0 else { powered = false; return }   // back to suspend
            let softReset = value & BMM150.PowerControl.softReset == BMM150.PowerControl.softReset
            if !powered || softReset { loadDefaults() }
            powered = true
            registers[Int(R.powerControl)] = value & 0x05   // the soft-reset bits read back 0
            return
        }
        guard powered, register > R.interruptStatus, register < R.trimStart else { return }   // read-only or trim
        registers[Int(register)] = value
        if [R.operationMode, R.repetitionsXY, R.repetitionsZ].contains(register) { applyConfiguration() }
        if register == R.operationMode { sampler.reset() }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        updateSample()
        var out: [UInt8] = []
        var readData = false
        for i in 0..<count {
            let register = Int(start) + i
            let visible = powered || register == Int(R.powerControl)
            out.append(visible && register < registers.count ? registers[register] : 0)
            if visible, (Int(R.dataXL)...Int(R.dataXL) + 7).contains(register) { readData = true }
        }
        if readData { registers[Int(R.dataXL) + 6] &= ~BMM150.dataReady }
        return out
    }

    private func updateSample() {
        guard powered, opMode == 0b00 || opMode == 0b01 else { return }
        guard let field = sampler.sampleIfDue() else { return }
        if opMode == 0b01 { registers[Int(R.operationMode)] |= 0b110 }   // forced: then sleep
        let raw = trim.rawCounts(for: field, rhall: hallResistance)
        func put(_ register: UInt8, _ value: Int, shift: Int, flags: UInt8) {
            let bytes = wordBytes(value << shift, littleEndian: true)
            registers[Int(register)] = bytes[0] | flags
            registers[Int(register) + 1] = bytes[1]
        }
        put(R.dataXL, raw.x, shift: 3, flags: 0x01)
        put(R.dataXL + 2, raw.y, shift: 3, flags: 0x01)
        put(R.dataXL + 4, raw.z, shift: 1, flags: 0x01)
        put(R.dataXL + 6, raw.rhall, shift: 2, flags: BMM150.dataReady)
    }
}

extension BMM150Trim {
    /// The raw counts a part with this trim outputs for `field` (µT) at Hall resistance `rhall`: the
    /// compensation solved for the raw values, rounded. Beyond ±1300 µT (X, Y) or ±2500 µT (Z), or past
    /// the ADC range, an axis reads its overflow code.
    public func rawCounts(for field: Vector3, rhall: Int) -> BMM150Raw {
        func xy(_ b: Double, offset: Int8, gain: Int8) -> Int {
            guard abs(b) <= 1300, let g = xyGain(rhall: rhall) else { return Self.xyOverflow }
            let raw = ((16 * b - 8 * Double(offset)) * 8192 / (g * (Double(gain) + 160))).rounded()
            return raw.isFinite && abs(raw) <= 4095 ? Int(raw) : Self.xyOverflow
        }
        var z = Self.zOverflow
        if abs(field.z) <= 2500, let g = zGain(rhall: rhall) {
            let raw = ((16 * field.z * g + Double(z3) * Double(rhall - Int(xyz1))) / 131072 + Double(z4)).rounded()
            if raw.isFinite && abs(raw) <= 16383 { z = Int(raw) }
        }
        return BMM150Raw(x: xy(field.x, offset: x1, gain: x2), y: xy(field.y, offset: y1, gain: y2), z: z,
                         rhall: max(0, min(16383, rhall)))
    }
}
