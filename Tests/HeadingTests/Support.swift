import Foundation
import Heading
import Linear

/// Earth field at Sydney in the magnetic frame (declination removed): H = 25 µT, inclination −64°.
let sydneyMagneticNED = Vector3(25, 0, -25 * tan(64 * Double.pi / 180))

/// The body-frame readings of a sensor at the given attitude (degrees): field = Rᵀ · field_NED,
/// accelerometer = Rᵀ · (0, 0, −1) g.
func bodyReadings(yaw: Double, roll: Double = 0, pitch: Double = 0,
                  field: Vector3 = sydneyMagneticNED) -> (magnetic: Vector3, acceleration: Vector3) {
    let r = Matrix3.rotation(roll: radians(roll), pitch: radians(pitch), yaw: radians(yaw)).transposed
    return (r * field, r * Vector3(0, 0, -1))
}

func gaussianVector(_ rng: inout SplitMix64, _ sigma: Double) -> Vector3 {
    Vector3(rng.nextGaussian() * sigma, rng.nextGaussian() * sigma, rng.nextGaussian() * sigma)
}

/// Generates noisy samples along an attitude trajectory.
struct SampleGenerator {
    var rng: SplitMix64
    var magneticNoise = 0.2     // µT per axis (QMC5883L-class)
    var accelerationNoise = 0.003 // g per axis
    var withAccelerometer = true
    var field = sydneyMagneticNED
    var wallStart = 1_750_000_000.0

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func sample(time: Double, yaw: Double, roll: Double = 0, pitch: Double = 0) -> CalibratedSample {
        let (m, a) = bodyReadings(yaw: yaw, roll: roll, pitch: pitch, field: field)
        let noisyM = m + gaussianVector(&rng, magneticNoise)
        let noisyA = a + gaussianVector(&rng, accelerationNoise)
        return CalibratedSample(monotonic: time, wall: wallStart + time, magnetic: noisyM,
                                acceleration: withAccelerometer ? noisyA : nil)
    }
}

/// Runs a filter over `duration` seconds at `rate` Hz along yaw(t) (degrees), returning (t, estimate).
func run(_ filter: inout HeadingFilter, generator: inout SampleGenerator, rate: Double, from start: Double = 0,
         duration: Double, roll: Double = 0, pitch: Double = 0,
         yaw: (Double) -> Double) -> [(time: Double, estimate: HeadingEstimate)] {
    var out: [(Double, HeadingEstimate)] = []
    let n = Int((duration * rate).rounded())
    for i in 0..<n {
        let t = start + Double(i) / rate
        if let e = filter.update(sample: generator.sample(time: t, yaw: yaw(t), roll: roll, pitch: pitch)) {
            out.append((t, e))
        }
    }
    return out
}

func standardDeviation(_ values: [Double]) -> Double {
    let mean = values.reduce(0, +) / Double(values.count)
    return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
}

/// Circular standard deviation of headings (degrees) around their circular mean (small spreads).
func headingJitter(_ headings: [Double]) -> Double {
    let s = headings.map { sin(radians($0)) }.reduce(0, +), c = headings.map { cos(radians($0)) }.reduce(0, +)
    let mean = degrees(atan2(s, c))
    return standardDeviation(headings.map { angleDifference($0, mean) })
}

func estimateIsFinite(_ e: HeadingEstimate) -> Bool {
    e.magneticHeading.isFinite && e.rawMagneticHeading.isFinite && e.accuracy.isFinite
        && (e.trueHeading?.isFinite ?? true) && (e.trueAccuracy?.isFinite ?? true)
        && e.fieldStrength.isFinite && e.horizontalField.isFinite && (e.inclination?.isFinite ?? true)
        && (e.roll?.isFinite ?? true) && (e.pitch?.isFinite ?? true) && e.turnRate.isFinite
        && e.deviation.isFinite && (0..<360).contains(e.magneticHeading) && (0..<360).contains(e.rawMagneticHeading)
}
