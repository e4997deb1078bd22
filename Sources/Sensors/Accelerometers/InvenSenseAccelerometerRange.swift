/// Full-scale range of the InvenSense accelerometers: the MPU-6050's AFS_SEL and the ICM-20948's
/// ACCEL_FS_SEL are the same two-bit code with the same 16-bit sensitivity (16384 counts/g at ±2 g,
/// halving with each step). Each driver names it `Range`.
///
/// ```swift
/// let range: MPU6050.Range = .g4      // the same type as ICM20948Accelerometer.Range
/// print(range.countsPerG, range.fullScale)   // 8192.0 4.0
/// ```
public enum InvenSenseAccelerometerRange: UInt8, CaseIterable, Sendable {
    case g2 = 0, g4 = 1, g8 = 2, g16 = 3
    public var countsPerG: Double { 16384 / Double(1 << Int(rawValue)) }
    public var fullScale: Double { Double(2 << Int(rawValue)) }
}

/// Full-scale range of the InvenSense gyroscopes: the MPU-6050's and MPU-9250's FS_SEL (GYRO_CONFIG
/// bits 4:3) and the ICM-20948's GYRO_FS_SEL (GYRO_CONFIG_1 bits 2:1) are the same two-bit code with
/// the same 16-bit sensitivity (131 counts per °/s at ±250 °/s, halving with each step).
///
/// ±500 °/s is the drivers' default for heading work: a hand-held or vehicle-mounted compass turns at
/// up to a few hundred °/s, so ±250 °/s clips quick flicks, while ±500 °/s still resolves 0.015 °/s.
///
/// ```swift
/// let range = InvenSenseGyroRange.dps500
/// print(range.countsPerDegreePerSecond, range.fullScale)   // 65.5 500.0
/// ```
public enum InvenSenseGyroRange: UInt8, CaseIterable, Sendable {
    case dps250 = 0, dps500 = 1, dps1000 = 2, dps2000 = 3
    public var countsPerDegreePerSecond: Double { 131 / Double(1 << Int(rawValue)) }
    public var fullScale: Double { 250 * Double(1 << Int(rawValue)) }
}

/// The InvenSense data block: accelerometer X, Y, Z, then (after `gyroOffset` bytes from the start)
/// gyroscope X, Y, Z, all big-endian 16-bit words. Shared by the MPU-6050/MPU-9250 (0x3B–0x48, gyro
/// at +8 after the temperature) and the ICM-20948 (0x2D–0x38, gyro at +6).
enum InvenSenseMotion {
    @inline(__always)
    static func decode<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, gyroOffset: Int,
                                                           accelerometer: InvenSenseAccelerometerRange, gyro: InvenSenseGyroRange,
                                                           kind: AccelerometerKind) throws(SensorError) -> MotionReading
        where Bytes.Index == Int {
        guard let g = RegisterBytes.unsaturatedVector(bytes, littleEndian: false, scale: 1 / accelerometer.countsPerG)
        else { throw .accelerometerSaturated(kind) }
        guard bytes.count >= gyroOffset + 6,
              let rate = RegisterBytes.unsaturatedVector(bytes, at: gyroOffset, littleEndian: false,
                                                         scale: 1 / gyro.countsPerDegreePerSecond)
        else { throw .gyroscopeSaturated(kind) }
        return MotionReading(acceleration: g, rotationRate: rate)
    }
}
