import Linear

/// The output side both ST accelerometer/gyro emulators share (LSM9DS1, LSM6DSL/LSM6DSOX): little-endian
/// gyro and accelerometer words, GDA and XLDA in a status register (bits 1 and 0), each cleared by reading
/// its words, and a register pointer that advances only while auto-increment is on.
///
/// ```swift
/// let outputs = STMotionRegisters(status: 0x1E, gyro: 0x22, accelerometer: 0x28)
/// return outputs.read(&registers, start: start, count: count, increments: true)
/// ```
struct STMotionRegisters {
    let status: Int
    let gyro: Int
    let accelerometer: Int
    static let accelerometerReady: UInt8 = 0x01
    static let gyroReady: UInt8 = 0x02

    init(status: UInt8, gyro: UInt8, accelerometer: UInt8) {
        self.status = Int(status)
        self.gyro = Int(gyro)
        self.accelerometer = Int(accelerometer)
    }

    /// `count` registers from `start`; reading a sensor's words clears its ready flag.
    func read(_ registers: inout [UInt8], start: UInt8, count: Int, increments: Bool) -> [UInt8] {
        var register = Int(start)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            out.append(register < registers.count ? registers[register] : 0)
            if (gyro..<gyro + 6).contains(register) {
                registers[status] &= ~Self.gyroReady
            } else if (accelerometer..<accelerometer + 6).contains(register) {
                registers[status] &= ~Self.accelerometerReady
            }
            if increments { register += 1 }
        }
        return out
    }

    /// Stores a sample (nil `countsPerG` or `countsPerDegreePerSecond`: that sensor is off) and sets the
    /// ready flags of the sensors that produced it.
    func store(_ motion: (acceleration: Vector3, rotationRate: Vector3), countsPerG: Double?,
               countsPerDegreePerSecond: Double?, into registers: inout [UInt8]) {
        var ready: UInt8 = 0
        if let countsPerG {
            storeAccelerometerWords(motion.acceleration, perG: countsPerG, bits: 16, littleEndian: true,
                                    into: &registers, at: accelerometer)
            ready |= Self.accelerometerReady
        }
        if let countsPerDegreePerSecond {
            storeAccelerometerWords(motion.rotationRate, perG: countsPerDegreePerSecond, bits: 16, littleEndian: true,
                                    into: &registers, at: gyro)
            ready |= Self.gyroReady
        }
        registers[status] |= ready
    }
}

/// What the ST accelerometer/gyro emulators share beyond the sampler: the register file and its output
/// side (`STMotionRegisters`). A chip subclass sets the registers up, handles writes, and says whether
/// the pointer auto-increments and which sensors are on at which scale.
///
/// ```swift
/// final class Chip: STMotionEmulatorBase, RegisterDevice {
///     override var autoIncrements: Bool { registers[0x12] & 0x04 != 0 }
///     override var scales: STMotionEmulatorBase.Scales? { (countsPerG: 16393, countsPerDegreePerSecond: 57.1) }
/// }
/// ```
public class STMotionEmulatorBase: AccelerometerEmulatorBase {
    /// Counts per g and per °/s of the sensors that are on (nil: that sensor is off).
    typealias Scales = (countsPerG: Double?, countsPerDegreePerSecond: Double?)
    public internal(set) var registers: [UInt8]
    let outputs: STMotionRegisters

    init(sampler: AccelerometerSampler, outputs: STMotionRegisters, size: Int) {
        self.outputs = outputs
        registers = [UInt8](repeating: 0, count: size)
        super.init(sampler: sampler)
    }

    /// Whether a multi-byte read advances the register pointer.
    var autoIncrements: Bool { true }
    /// The scales now, or nil when both sensors are powered down.
    var scales: Scales? { nil }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        if let scales, let motion = motionIfDue() {
            outputs.store(motion, countsPerG: scales.countsPerG, countsPerDegreePerSecond: scales.countsPerDegreePerSecond,
                          into: &registers)
        }
        return outputs.read(&registers, start: start, count: count, increments: autoIncrements)
    }
}
