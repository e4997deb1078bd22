import Linear
import Sensors

/// A register-level QMC5883L: the driver talks to it exactly as to the real chip.
///
/// Implements the register file, soft reset, continuous mode at the configured ODR, DRDY cleared by
/// reading the data, the overflow flag, ±2/±8 G scaling, and white noise at the datasheet level.
public final class QMC5883LEmulator: RegisterDevice {
    typealias R = QMC5883L.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x10)
    private let physics: PhysicsSource
    private var clock = ChipClock(rate: 10)
    private var rng: SplitMix64
    /// RMS noise per axis in µT (datasheet: about 2 mG).
    public var noise: Double
    /// When set, every sample reports this raw field instead of the physics (for stuck/overflow tests).
    public var forcedField: Vector3?

    /// What register 0x0D reads: 0xFF on current parts; revision 1.0 parts left it reserved (0x00).
    public let chipID: UInt8

    public init(physics: PhysicsSource, noise: Double = 0.2, seed: UInt64 = 1, chipID: UInt8 = QMC5883L.chipIDValue) {
        self.physics = physics
        self.chipID = chipID
        self.noise = noise
        rng = SplitMix64(seed: seed)
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x10)
        registers[Int(R.revision)] = 0x01
        registers[Int(R.chipID)] = chipID
        clock.reset()
    }

    private var control1: UInt8 { registers[Int(R.control1)] }
    private var continuous: Bool { control1 & 0b11 == 0b01 }
    private var range: QMC5883L.Range { QMC5883L.Range(rawValue: (control1 >> 4) & 0b11) ?? .gauss2 }
    private var rate: QMC5883L.Rate { QMC5883L.Rate(rawValue: (control1 >> 2) & 0b11) ?? .hz10 }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < registers.count else { return }
        if register == R.control2 && value & 0x80 != 0 { reset(); return }
        if register == R.chipID || register == R.revision || register <= R.status { return }
        registers[Int(register)] = value
        if register == R.control1 { clock = ChipClock(rate: rate.hertz) }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var reg = Int(start)
        for _ in 0..<count {
            out.append(readByte(reg))
            reg += 1
            if registers[Int(R.control2)] & 0x40 != 0 && reg > Int(R.status) { reg = 0 }  // ROL_PNT
        }
        return out
    }

    public func readRegister(_ register: UInt8) -> UInt8 { readByte(Int(register)) }

    /// One register read by the bus master, with its side effects.
    private func readByte(_ reg: Int) -> UInt8 {
        if reg == Int(R.status) { updateSample() }
        let value = reg < registers.count ? registers[reg] : 0
        // Reading the data registers clears DRDY (datasheet 9.2.2).
        if reg <= Int(R.status) - 1 { registers[Int(R.status)] &= ~QMC5883L.Status.dataReady }
        return value
    }

    private func updateSample() {
        guard continuous else { return }
        let now = physics.now()
        guard clock.sampleDue(at: now) else { return }
        let field = forcedField ?? physics.magneticField(now)
        let countsPerMicrotesla = range.countsPerGauss / 100
        let limit = range.fullScaleMicrotesla * countsPerMicrotesla
        var status = registers[Int(R.status)] & ~QMC5883L.Status.overflow
        if registers[Int(R.status)] & QMC5883L.Status.dataReady != 0 { status |= QMC5883L.Status.dataSkipped }
        for axis in 0..<3 {
            var counts = ((field[axis] + noise * rng.nextGaussian()) * countsPerMicrotesla).rounded()
            if abs(counts) > limit { status |= QMC5883L.Status.overflow }
            counts = max(-32768, min(32767, counts))
            let word = UInt16(bitPattern: Int16(counts))
            registers[axis * 2] = UInt8(word & 0xFF)
            registers[axis * 2 + 1] = UInt8(word >> 8)
        }
        registers[Int(R.status)] = status | QMC5883L.Status.dataReady
    }
}
