import Attitude
import Foundation
import Linear

/// Simulates an IMU on a moving body: true orientation integrated from a rate profile, and the
/// gyro (°/s, with bias and noise), specific force (g) and field (µT) it would measure.
struct SyntheticMotion {
    /// Earth field in NED (µT): a mid-latitude field in magnetic axes (north along H = 20 µT), dip about 63°.
    var field = Vector3(20, 0, 40)
    var gyroBias = Vector3.zero
    var gyroNoise = 0.05           // °/s per sample
    var accelerationNoise = 0.003  // g
    var magneticNoise = 0.2        // µT
    var rate = 100.0               // Hz
    var rng = SplitMix64(seed: 7)
    var orientation: Quaternion
    var time = 0.0

    init(orientation: Quaternion = .identity, seed: UInt64 = 7) {
        self.orientation = orientation
        rng = SplitMix64(seed: seed)
    }

    struct Sample {
        var time: Double
        var gyro: Vector3
        var accelerometer: Vector3
        var magnetometer: Vector3
        var truth: Quaternion
    }

    private mutating func noise(_ s: Double) -> Vector3 {
        Vector3(rng.nextGaussian() * s, rng.nextGaussian() * s, rng.nextGaussian() * s)
    }

    /// Advances one sample with body rate `bodyRate` (°/s), vehicle acceleration `acceleration` (g, NED)
    /// and an extra field `disturbance` (µT, NED).
    mutating func step(bodyRate: Vector3, acceleration: Vector3 = .zero, disturbance: Vector3 = .zero) -> Sample {
        let dt = 1 / rate
        // Integrate the truth in small steps.
        for _ in 0..<10 {
            orientation = (orientation * Quaternion(rotationVector: bodyRate * (radians(1) * dt / 10))).normalized
        }
        time += dt
        let specific = orientation.inverseRotate(acceleration - Vector3(0, 0, 1))
        let magnetic = orientation.inverseRotate(field + disturbance)
        return Sample(time: time, gyro: bodyRate + gyroBias + noise(gyroNoise),
                      accelerometer: specific + noise(accelerationNoise),
                      magnetometer: magnetic + noise(magneticNoise), truth: orientation)
    }
}

/// Magnetic heading (degrees) of body x for an orientation; nil near pitch ±90°.
func trueHeading(_ q: Quaternion) -> Double? {
    AttitudeEstimate.angles(of: q, pitchLimit: 88).heading
}

/// Smallest absolute difference between two angles in degrees.
func angleError(_ a: Double, _ b: Double) -> Double {
    abs(remainder(a - b, 360))
}

extension AttitudeFilter {
    mutating func update(_ s: SyntheticMotion.Sample, gyro: Bool = true) {
        update(time: s.time, gyroscope: gyro ? s.gyro : nil, accelerometer: s.accelerometer, magnetometer: s.magnetometer)
    }
}
