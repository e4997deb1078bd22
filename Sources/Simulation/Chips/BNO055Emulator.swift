import Linear
import Sensors

/// A register-level BNO055 in its non-fusion modes: the driver talks to it as to the real chip.
///
/// Implements CHIP_ID (0xA0) and the sensor ids, register pages (PAGE_ID), OPR_MODE (data only in the
/// modes with the sensor in them; CONFIG mode by default after power-on), SYS_TRIGGER's reset, UNIT_SEL
/// (mg or m/s², °/s or rad/s), page 1's magnetometer data rate (2–30 Hz) and gyro range, little-endian
/// accelerometer, magnetometer (16 counts per µT) and gyro (16 counts per °/s, or 900 per rad/s) words,
/// each clamped at its sensor's range, and CALIB_STAT (`calibrationStatus`, settable). Mode switches are
/// instantaneous here (the real chip needs 7–19 ms). Fusion output (Euler angles, quaternion) is not
/// emulated. Physics: field (µT), acceleration (g) and rotation rate (°/s), chip axes.
///
/// ```swift
/// bus.attach(BNO055Emulator(physics: physics), at: 0x28)
/// let chip = try BNO055(bus: bus, now: clock.now, sleep: { _ in })
/// ```
public final class BNO055Emulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = BNO055.Register
    public private(set) var page0 = [UInt8](repeating: 0, count: 0x80)
    public private(set) var page1 = [UInt8](repeating: 0, count: 0x80)
    /// The accelerometer and gyro (g and °/s, chip axes).
    var motion: AccelerometerSampler
    /// What CALIB_STAT (0x35) reads.
    public var calibrationStatus: UInt8 = 0x00

    public var chip: ChipKind { .bno055 }

    /// RMS noise: `noise` µT (nil: 0.5), `accelerationNoise` g, `gyroNoise` °/s.
    public init(physics: PhysicsSource, noise: Double? = nil, accelerationNoise: Double = 0.002, gyroNoise: Double = 0.1,
                seed: UInt64 = 17) {
        let n = noise ?? 0.5
        motion = AccelerometerSampler(physics: physics, noise: accelerationNoise, seed: seed &+ 1, gyroNoise: gyroNoise)
        super.init(sampler: MagneticSampler(physics: physics, noise: Vector3(n, n, n), seed: seed))
        reset()
    }

    /// RMS gyro noise in °/s.
    public var gyroNoise: Double {
        get { motion.gyroNoise }
        set { motion.gyroNoise = newValue }
    }

    /// When set, every sample reports this rotation rate in °/s (chip axes) instead of the physics.
    public var forcedRotationRate: Vector3? {
        get { motion.forcedRotationRate }
        set { motion.forcedRotationRate = newValue }
    }

    /// RMS accelerometer noise in g.
    public var accelerationNoise: Double {
        get { motion.noise }
        set { motion.noise = newValue }
    }

    private func reset() {
        page0 = [UInt8](repeating: 0, count: 0x80)
        page1 = [UInt8](repeating: 0, count: 0x80)
        page0[Int(R.chipID)] = BNO055.identity
        page0[0x01] = 0xFB   // ACC_ID
        page0[0x02] = 0x32   // MAG_ID
        page0[0x03] = 0x0F   // GYR_ID
        page0[Int(R.unitSelect)] = 0x80
        page1[Int(BNO055.Page1.accelConfig)] = 0x0D   // ±4 g, 62.5 Hz
        page1[Int(BNO055.Page1.magConfig)] = 0x6D     // 20 Hz
        page1[Int(BNO055.Page1.gyroConfig0)] = 0x38   // ±2000 °/s, 32 Hz
        page1[0x00] = 0x01
        sampler.reset()
        motion.reset()
        motion.setRate(100)
        updateRate()
    }

    private var page: UInt8 { page0[Int(R.pageID)] }
    private var mode: UInt8 { page0[Int(R.operationMode)] & 0x0F }

    private func updateRate() {
        sampler.setRate([2, 6, 8, 10, 15, 20, 25, 30][Int(page1[Int(BNO055.Page1.magConfig)] & 0x07)])
    }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < page0.count else { return }
        if register == R.pageID { page0[Int(R.pageID)] = value & 0x01; page1[0x07] = value & 0x01; return }
        if page == 1 {
            // The sensors' own settings only take in CONFIG mode.
            guard mode == BNO055.Mode.config else { return }
            page1[Int(register)] = value
            if register == BNO055.Page1.magConfig { updateRate() }
            return
        }
        if register == R.systemTrigger && value & 0x20 != 0 { reset(); return }
        guard register >= R.unitSelect else { return }   // ids, data and status are read-only
        if register != R.operationMode && mode != BNO055.Mode.config { return }   // settings only in CONFIG mode
        page0[Int(register)] = value
        if register == R.operationMode { sampler.reset(); motion.reset(); motion.setRate(100) }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        if page == 0 { updateSamples() }
        page0[Int(R.calibrationStatus)] = calibrationStatus
        return (0..<count).map { i in
            let register = Int(start) + i
            guard register < page0.count else { return 0 }
            return page == 0 || register == Int(R.pageID) ? page0[register] : page1[register]
        }
    }

    /// Modes with each sensor: ACC 1, 4, 5, 7…; MAG 2, 4, 6, 7…; GYR 3, 5, 6, 7…
    private func has(_ sensor: Int) -> Bool {
        let m = Int(mode)
        switch sensor {
        case 0: return [1, 4, 5, 7].contains(m) || m >= 8
        case 1: return [2, 4, 6, 7].contains(m) || m >= 9
        default: return [3, 5, 6, 7, 8].contains(m) || m >= 0x0A
        }
    }

    private func updateSamples() {
        guard mode != BNO055.Mode.config else { return }
        if has(1), let field = sampler.sampleIfDue() {
            store(field, perUnit: BNO055.countsPerMicrotesla, limit: Vector3(1300, 1300, 2500), at: BNO055.Register.magXLow)
        }
        if let m = motion.motionIfDue() {
            let milligee = page0[Int(R.unitSelect)] & 0x01 != 0
            if has(0) {
                let range = [2.0, 4, 8, 16][Int(page1[Int(BNO055.Page1.accelConfig)] & 0x03)]
                store(m.acceleration, perUnit: milligee ? 1000 : 980.665, limit: Vector3(range, range, range),
                      at: BNO055.Register.accelXLow)
            }
            if has(2) {
                let range = [2000.0, 1000, 500, 250, 125, 2000, 2000, 2000][Int(page1[Int(BNO055.Page1.gyroConfig0)] & 0x07)]
                let radians = page0[Int(R.unitSelect)] & 0x02 != 0
                store(m.rotationRate, perUnit: radians ? 900 * Double.pi / 180 : BNO055.countsPerDegreePerSecond,
                      limit: Vector3(range, range, range), at: BNO055.Register.gyroXLow)
            }
        }
    }

    private func store(_ value: Vector3, perUnit: Double, limit: Vector3, at start: UInt8) {
        for axis in 0..<3 {
            let clamped = max(-limit[axis], min(limit[axis], value[axis]))
            let bytes = wordBytes(clampedCount(clamped * perUnit, -32768...32767), littleEndian: true)
            page0[Int(start) + 2 * axis] = bytes[0]
            page0[Int(start) + 2 * axis + 1] = bytes[1]
        }
    }
}
