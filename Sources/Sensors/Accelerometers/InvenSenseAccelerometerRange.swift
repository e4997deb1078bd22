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
