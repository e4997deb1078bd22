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
