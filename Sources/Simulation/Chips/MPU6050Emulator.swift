import Linear
import Sensors

/// A register-level MPU-6050 accelerometer and gyroscope: the driver talks to it as to the real chip
/// on a GY-521 board.
///
/// Implements power-on sleep, DEVICE_RESET, the sample-rate divider with and without the DLPF,
/// AFS_SEL and FS_SEL scaling, big-endian data registers (accelerometer, temperature, gyro) with
/// auto-increment, clamping at the 16-bit rails, and DATA_RDY_INT cleared by reading INT_STATUS.
/// Physics comes from `PhysicsSource.acceleration` (g) and `.rotationRate` (°/s), chip axes.
///
/// With `model: .mpu9250` it is an MPU-9250 (WHO_AM_I 0x71, awake after power-on) and, once
/// `connect(magnetometer:on:at:)` gave it its AK8963, the bypass host: the magnetometer is attached to
/// the bus exactly while the chip is awake, USER_CTRL.I2C_MST_EN is off and INT_PIN_CFG.BYPASS_EN is set.
///
/// ```swift
/// bus.attach(MPU6050Emulator(physics: physics), at: 0x68)
/// let accel = try MPU6050(bus: bus)
/// ```
public final class MPU6050Emulator: AccelerometerEmulatorBase, RegisterDevice, ByteByByteRegisters {
    typealias R = MPU6050.Register
    /// The register file (0x00–0x7F).
    public var registers: [UInt8] {
        storeLatchedSample()
        return (0..<file.count).map { file[$0] }
    }
    /// The register file. Not checked for exclusivity at run time (a check at every register
    /// read and write, each through the runtime's access set): it is private, the emulator is not
    /// Sendable, and no access to it calls out of the emulator (the physics, and the bus when the
    /// bypass changes, are called between accesses), so nothing can reach it again during one.
    @exclusivity(unchecked) private var file = InlineArray<0x80, UInt8>(repeating: 0)
    /// The scales (AFS_SEL, FS_SEL) when the latched sample was latched: its words are written
    /// with them when first read. Unchecked as `file`.
    @exclusivity(unchecked) private var latchedScales = (countsPerG: 0.0, countsPerDegreePerSecond: 0.0)
    public let model: MPU6050.Model
    private weak var bus: EmulatedI2CBus?
    /// The AK8963 behind the bypass (MPU-9250) and the address it answers at.
    public private(set) var magnetometer: (device: any RegisterDevice, address: I2CAddress)?

    /// `noise`: RMS g per axis (datasheet: 400 µg/√Hz, about 3 mg at a 44 Hz bandwidth).
    /// `gyroNoise`: RMS °/s per axis (datasheet: 0.05 °/s total RMS noise at 100 Hz).
    public init(physics: PhysicsSource, noise: Double = 0.003, gyroNoise: Double = 0.05, seed: UInt64 = 3,
                model: MPU6050.Model = .mpu6050) {
        self.model = model
        super.init(sampler: AccelerometerSampler(physics: physics, noise: noise, seed: seed, gyroNoise: gyroNoise))
        reset()
    }

    /// Puts `device` on the auxiliary bus: it answers on `bus` at `address` while the bypass is on.
    public func connect(magnetometer device: any RegisterDevice, on bus: EmulatedI2CBus, at address: I2CAddress) {
        self.bus = bus
        magnetometer = (device, address)
        updateBypass()
    }

    /// Whether the auxiliary bus is connected to the main bus now.
    public var bypassActive: Bool {
        !asleep && file[Int(R.userControl)] & BypassHost.masterEnable == 0
            && file[Int(R.interruptPinConfig)] & BypassHost.bypassEnable != 0
    }

    private func updateBypass() {
        guard let bus, let magnetometer else { return }
        if bypassActive {
            if bus.device(at: magnetometer.address) == nil { bus.attach(magnetometer.device, at: magnetometer.address) }
        } else if bus.device(at: magnetometer.address) === magnetometer.device {
            bus.detach(magnetometer.address)
        }
    }

    private func reset() {
        file = InlineArray(repeating: 0)
        file[Int(R.whoAmI)] = model.identities[0]
        file[Int(R.powerManagement1)] = model == .mpu6050 ? 0x40 : 0x01   // MPU-6050 asleep after power-on
        resetSampler()
        updateRate()
        updateBypass()
    }

    private var asleep: Bool { file[Int(R.powerManagement1)] & 0x40 != 0 }

    private func updateRate() {
        let dlpf = file[Int(R.config)] & 0x07
        let base: Double = (dlpf == 0 || dlpf == 7) ? 8000 : 1000
        let rate = base / (1 + Double(file[Int(R.sampleRateDivider)]))
        setSampleRate(min(rate, 1000))   // the accelerometer itself updates at most at 1 kHz
    }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < file.count, register != R.whoAmI else { return }
        if register == R.powerManagement1 && value & 0x80 != 0 { reset(); return }
        if (R.accelXHigh...0x48).contains(register) || register == R.interruptStatus { return }  // read-only
        file[Int(register)] = value
        if register == R.config || register == R.sampleRateDivider { updateRate() }
        if register == R.powerManagement1 || register == R.userControl || register == R.interruptPinConfig { updateBypass() }
    }

    /// A block read, byte by byte into `take`: the pointer auto-increments. The first of
    /// INT_STATUS, ACCEL_XOUT_H and GYRO_XOUT_H it reads latches a sample when one is due, once for
    /// the block: the chip does not update its data registers during a burst read, so its bytes
    /// are of one sampling instant.
    func readEach(start: UInt8, count: Int, _ take: (UInt8) -> Void) {
        var latched = false
        for reg in Int(start)..<Int(start) + max(0, count) {
            if !latched && Self.latches(reg) {
                updateSample()
                latched = true
            }
            take(readByte(reg))
        }
    }

    public func readRegister(_ register: UInt8) -> UInt8 {
        if Self.latches(Int(register)) { updateSample() }
        return readByte(Int(register))
    }

    /// Whether reading `reg` latches a due sample first.
    private static func latches(_ reg: Int) -> Bool {
        reg == Int(R.interruptStatus) || reg == Int(R.accelXHigh) || reg == Int(R.gyroXHigh)
    }

    /// One register read by the bus master, with its side effects (a data register first gets the
    /// latched sample; INT_STATUS clears DATA_RDY_INT).
    private func readByte(_ reg: Int) -> UInt8 {
        guard reg < file.count else { return 0 }
        if reg >= Int(R.accelXHigh) && reg <= Int(R.gyroXHigh) + 5 { storeLatchedSample() }
        let value = file[reg]
        if reg == Int(R.interruptStatus) { file[reg] &= ~0x01 }
        return value
    }

    /// A sample due now is latched: DATA_RDY_INT set when its interrupt is enabled, and its
    /// words written into the data registers when one of them is first read (a sample overwritten
    /// unread is never worked out; the values read are the same).
    private func updateSample() {
        guard !asleep, latchMotionIfDue() else { return }
        let range = MPU6050.Range(rawValue: (file[Int(R.accelConfig)] >> 3) & 0b11) ?? .g2
        let gyroRange = MPU6050.GyroRange(rawValue: (file[Int(R.gyroConfig)] >> 3) & 0b11) ?? .dps250
        latchedScales = (range.countsPerG, gyroRange.countsPerDegreePerSecond)
        if file[Int(R.interruptEnable)] & 0x01 != 0 { file[Int(R.interruptStatus)] |= 0x01 }
    }

    /// The latched sample's words into the data registers, when one waits.
    private func storeLatchedSample() {
        guard let motion = takeLatchedMotion() else { return }
        Self.store(motion, countsPerG: latchedScales.countsPerG,
                   countsPerDegreePerSecond: latchedScales.countsPerDegreePerSecond, into: &file)
    }

    /// A sample into the data registers (big-endian words: acceleration, 25 °C, rotation rate).
    private static func store(_ motion: (acceleration: Vector3, rotationRate: Vector3), countsPerG: Double,
                              countsPerDegreePerSecond: Double, into file: inout InlineArray<0x80, UInt8>) {
        var registers = file.mutableSpan
        storeAccelerometerWords(motion.acceleration, perG: countsPerG, bits: 16, littleEndian: false,
                                into: &registers, at: Int(R.accelXHigh))
        storeAccelerometerWords(motion.rotationRate, perG: countsPerDegreePerSecond, bits: 16,
                                littleEndian: false, into: &registers, at: Int(R.gyroXHigh))
        let temperature = UInt16(bitPattern: Int16((25 - 36.53) * 340))   // 25 °C
        registers[0x41] = UInt8(temperature >> 8)
        registers[0x42] = UInt8(temperature & 0xFF)
    }
}
