import Linear
import Sensors

/// A register-level QMC5883L: the driver talks to it exactly as to the real chip.
///
/// Implements the register file, soft reset, continuous mode at the configured ODR, DRDY cleared by
/// reading the data, the overflow flag, ±2/±8 G scaling, and white noise at the datasheet level.
public final class QMC5883LEmulator: RegisterDevice, ByteByByteRegisters {
    typealias R = QMC5883L.Register
    /// The register file (0x00–0x0F).
    public var registers: [UInt8] { (0..<state.registers.count).map { state.registers[$0] } }
    private let physics: PhysicsSource
    /// RMS noise per axis in µT (datasheet: about 2 mG).
    public var noise: Double {
        get { state.noise }
        set { state.noise = newValue }
    }
    /// When set, every sample reports this raw field instead of the physics (for stuck/overflow tests).
    public var forcedField: Vector3? {
        get { state.forcedField }
        set { state.forcedField = newValue }
    }

    /// What register 0x0D reads: 0xFF on current parts; revision 1.0 parts left it reserved (0x00).
    public let chipID: UInt8

    /// The chip's registers, sample clock and noise, in one value. Not checked for exclusivity at
    /// run time (a check at every register read and write, each through the runtime's access set):
    /// it is private, the emulator is not Sendable, and no access to it calls out of the emulator
    /// (the physics is called between accesses, never inside one), so nothing can reach it again
    /// during one.
    @exclusivity(unchecked) private var state: State

    private struct State {
        var registers = InlineArray<0x10, UInt8>(repeating: 0)
        var clock = ChipClock(rate: 10)
        var rng: SplitMix64
        var noise: Double
        var forcedField: Vector3?
    }

    public init(physics: PhysicsSource, noise: Double = 0.2, seed: UInt64 = 1, chipID: UInt8 = QMC5883L.chipIDValue) {
        self.physics = physics
        self.chipID = chipID
        state = State(rng: SplitMix64(seed: seed), noise: noise)
        reset()
    }

    private func reset() {
        state.registers = InlineArray(repeating: 0)
        state.registers[Int(R.revision)] = 0x01
        state.registers[Int(R.chipID)] = chipID
        state.clock.reset()
    }

    private var control1: UInt8 { state.registers[Int(R.control1)] }
    private var continuous: Bool { control1 & 0b11 == 0b01 }
    private var range: QMC5883L.Range { QMC5883L.Range(rawValue: (control1 >> 4) & 0b11) ?? .gauss2 }
    private var rate: QMC5883L.Rate { QMC5883L.Rate(rawValue: (control1 >> 2) & 0b11) ?? .hz10 }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < state.registers.count else { return }
        if register == R.control2 && value & 0x80 != 0 { reset(); return }
        if register == R.chipID || register == R.revision || register <= R.status { return }
        state.registers[Int(register)] = value
        if register == R.control1 { state.clock = ChipClock(rate: rate.hertz) }
    }

    /// A block read, byte by byte into `take`: the pointer auto-increments, and with ROL_PNT
    /// (control 2, bit 6) rolls over from the status register to 0x00.
    func readEach(start: UInt8, count: Int, _ take: (UInt8) -> Void) {
        let rollsOver = state.registers[Int(R.control2)] & 0x40 != 0
        var reg = Int(start)
        for _ in 0..<max(0, count) {
            take(readByte(reg))
            reg += 1
            if rollsOver && reg > Int(R.status) { reg = 0 }
        }
    }

    public func readRegister(_ register: UInt8) -> UInt8 { readByte(Int(register)) }

    /// One register read by the bus master, with its side effects.
    private func readByte(_ reg: Int) -> UInt8 {
        if reg == Int(R.status) { updateSample() }
        guard reg < state.registers.count else { return 0 }
        let value = state.registers[reg]
        // Reading the data registers clears DRDY (datasheet 9.2.2).
        if reg < Int(R.status) { state.registers[Int(R.status)] &= ~QMC5883L.Status.dataReady }
        return value
    }

    private func updateSample() {
        guard continuous else { return }
        let now = physics.now()
        guard state.clock.sampleDue(at: now) else { return }
        let forced = state.forcedField
        let field = forced ?? physics.magneticField(now)
        let countsPerMicrotesla = range.countsPerGauss / 100
        let limit = range.fullScaleMicrotesla * countsPerMicrotesla
        let status = state.registers[Int(R.status)]
        var next = status & ~QMC5883L.Status.overflow
        if status & QMC5883L.Status.dataReady != 0 { next |= QMC5883L.Status.dataSkipped }
        for axis in 0..<3 {
            var counts = ((field[axis] + state.noise * state.rng.nextGaussian()) * countsPerMicrotesla).rounded()
            if abs(counts) > limit { next |= QMC5883L.Status.overflow }
            counts = max(-32768, min(32767, counts))
            let word = UInt16(bitPattern: Int16(counts))
            state.registers[axis * 2] = UInt8(word & 0xFF)
            state.registers[axis * 2 + 1] = UInt8(word >> 8)
        }
        state.registers[Int(R.status)] = next | QMC5883L.Status.dataReady
    }
}
