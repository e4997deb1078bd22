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
public final class MPU6050Emulator: AccelerometerEmulatorBase, RegisterDevice {
    typealias R = MPU6050.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x80)
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
        !asleep && registers[Int(R.userControl)] & BypassHost.masterEnable == 0
            && registers[Int(R.interruptPinConfig)] & BypassHost.bypassEnable != 0
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
        registers = [UInt8](repeating: 0, count: 0x80)
        registers[Int(R.whoAmI)] = model.identities[0]
        registers[Int(R.powerManagement1)] = model == .mpu6050 ? 0x40 : 0x01   // MPU-6050 asleep after power-on
        sampler.reset()
        updateRate()
        updateBypass()
    }

    private var asleep: Bool { registers[Int(R.powerManagement1)] & 0x40 != 0 }

    private func updateRate() {
        let dlpf = registers[Int(R.config)] & 0x07
        let base: Double = (dlpf == 0 || dlpf == 7) ? 8000 : 1000
        let rate = base / (1 + Double(registers[Int(R.sampleRateDivider)]))
        sampler.setRate(min(rate, 1000))   // the accelerometer itself updates at most at 1 kHz
    }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < registers.count, register != R.whoAmI else { return }
        if register == R.powerManagement1 && value & 0x80 != 0 { reset(); return }
        if (R.accelXHigh...0x48).contains(register) || register == R.interruptStatus { return }  // read-only
        registers[Int(register)] = value
        if register == R.config || register == R.sampleRateDivider { updateRate() }
        if register == R.powerManagement1 || register == R.userControl || register == R.interruptPinConfig { updateBypass() }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var reg = Int(start)
        for _ in 0..<count {
            out.append(readByte(reg))
            reg += 1
        }
        return out
    }

    public func readRegister(_ register: UInt8) -> UInt8 { readByte(Int(register)) }

    /// One register read by the bus master, with its side effects.
    private func readByte(_ reg: Int) -> UInt8 {
        if reg == Int(R.interruptStatus) || reg == Int(R.accelXHigh) || reg == Int(R.gyroXHigh) { updateSample() }
        let value = reg < registers.count ? registers[reg] : 0
        if reg == Int(R.interruptStatus) { registers[reg] &= ~0x01 }   // read clears DATA_RDY_INT
        return value
    }

    private func updateSample() {
        guard !asleep, let motion = sampler.motionIfDue() else { return }
        let range = MPU6050.Range(rawValue: (registers[Int(R.accelConfig)] >> 3) & 0b11) ?? .g2
        storeAccelerometerWords(motion.acceleration, perG: range.countsPerG, bits: 16, littleEndian: false,
                                into: &registers, at: Int(R.accelXHigh))
        let gyroRange = MPU6050.GyroRange(rawValue: (registers[Int(R.gyroConfig)] >> 3) & 0b11) ?? .dps250
        storeAccelerometerWords(motion.rotationRate, perG: gyroRange.countsPerDegreePerSecond, bits: 16,
                                littleEndian: false, into: &registers, at: Int(R.gyroXHigh))
        let temperature = UInt16(bitPattern: Int16((25 - 36.53) * 340))   // 25 °C
        registers[0x41] = UInt8(temperature >> 8)
        registers[0x42] = UInt8(temperature & 0xFF)
        if registers[Int(R.interruptEnable)] & 0x01 != 0 { registers[Int(R.interruptStatus)] |= 0x01 }
    }
}
