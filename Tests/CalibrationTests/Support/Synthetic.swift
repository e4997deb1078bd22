import Foundation
import Linear
@testable import Calibration

/// A distorted magnetometer: raw = softIron · field + offset + noise.
struct SyntheticSensor {
    var offset: Vector3
    var softIron: Matrix3
    var noise: Double

    func read(_ field: Vector3, _ rng: inout SplitMix64) -> Vector3 {
        let n = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * noise
        return softIron * field + offset + n
    }

    /// A random sensor: offset of magnitude `offsetScale` × field strength in a random direction,
    /// soft iron = R · diag(gains) · Rᵀ with gains in 1 ± softIronFraction.
    static func random(_ rng: inout SplitMix64, fieldStrength: Double, offsetScale: Double,
                       softIronFraction: Double, noise: Double) -> SyntheticSensor {
        let dir = Synthetic.randomUnit(&rng)
        let r = Synthetic.randomRotation(&rng)
        var gains = Vector3(0, 0, 0)
        for i in 0..<3 { gains[i] = 1 + softIronFraction * (2 * rng.nextUnit() - 1) }
        // Make sure the extremes are exercised.
        gains.x = 1 + softIronFraction
        gains.y = 1 - softIronFraction
        return SyntheticSensor(offset: dir * (offsetScale * fieldStrength),
                               softIron: r * Matrix3.diagonal(gains) * r.transposed, noise: noise)
    }
}

enum Synthetic {
    /// Earth field in NED, µT: ~49 µT total, 66° inclination (mid-northern latitudes).
    static let earthNED = Vector3(19.9, 0.6, 45.2)

    static func randomUnit(_ rng: inout SplitMix64) -> Vector3 {
        while true {
            let v = Vector3(2 * rng.nextUnit() - 1, 2 * rng.nextUnit() - 1, 2 * rng.nextUnit() - 1)
            let n = v.norm
            if n > 0.1 && n <= 1 { return v / n }
        }
    }

    static func randomRotation(_ rng: inout SplitMix64) -> Matrix3 {
        Matrix3.rotation(roll: 2 * .pi * rng.nextUnit(), pitch: asin(2 * rng.nextUnit() - 1), yaw: 2 * .pi * rng.nextUnit())
    }

    /// Rodrigues: rotation by angle |w| about w.
    static func exp(_ w: Vector3) -> Matrix3 {
        let theta = w.norm
        guard theta > 1e-12 else { return .identity }
        let k = w / theta
        let kx = Matrix3(rows: Vector3(0, -k.z, k.y), Vector3(k.z, 0, -k.x), Vector3(-k.y, k.x, 0))
        return Matrix3.identity + kx * sin(theta) + (kx * kx) * (1 - cos(theta))
    }

    static func orthonormalize(_ m: Matrix3) -> Matrix3 {
        let c0 = Vector3(m[0, 0], m[1, 0], m[2, 0]).normalized ?? Vector3(1, 0, 0)
        var c1 = Vector3(m[0, 1], m[1, 1], m[2, 1])
        c1 = (c1 - c0 * c0.dot(c1)).normalized ?? Vector3(0, 1, 0)
        let c2 = c0.cross(c1)
        return Matrix3(rows: c0, c1, c2).transposed
    }

    /// A smooth random tumble: body-to-NED attitudes at `rate` Hz for `seconds`, with the body
    /// angular velocity an Ornstein–Uhlenbeck process (time constant ~1.5 s, ~1.3 rad/s rms per axis).
    static func tumble(seconds: Double, rate: Double, seed: UInt64) -> [Matrix3] {
        var rng = SplitMix64(seed: seed)
        let dt = 1 / rate, tau = 1.5, sigma = 1.3
        var omega = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * sigma
        var attitude = randomRotation(&rng)
        var out: [Matrix3] = []
        let steps = Int(seconds * rate)
        out.reserveCapacity(steps)
        for k in 0..<steps {
            out.append(attitude)
            let kick = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * (sigma * (2 * dt / tau).squareRoot())
            omega = omega - omega * (dt / tau) + kick
            attitude = attitude * exp(omega * dt)
            if k % 50 == 0 { attitude = orthonormalize(attitude) }
        }
        return out
    }

    /// Raw readings of `sensor` along `attitudes`.
    static func readings(_ sensor: SyntheticSensor, attitudes: [Matrix3], seed: UInt64,
                         field: Vector3 = earthNED) -> [Vector3] {
        var rng = SplitMix64(seed: seed)
        return attitudes.map { sensor.read($0.transposed * field, &rng) }
    }

    /// Level heading from a body-frame field: atan2(−y, x) in degrees.
    static func heading(_ b: Vector3) -> Double { degrees(atan2(-b.y, b.x)) }

    /// Worst heading error over a level 360° turn (1° steps), noise-free readings.
    static func worstLevelHeadingError(_ sensor: SyntheticSensor, correct: (Vector3) -> Vector3,
                                       field: Vector3 = earthNED) -> Double {
        var worst = 0.0
        for step in 0..<360 {
            let yaw = radians(Double(step))
            let bodyField = Matrix3.rotation(roll: 0, pitch: 0, yaw: yaw).transposed * field
            let truth = heading(bodyField)
            let raw = sensor.softIron * bodyField + sensor.offset
            let got = heading(correct(raw))
            worst = max(worst, abs(angleDifference(got, truth)))
        }
        return worst
    }

    /// Worst tilt-compensated heading error (true attitude) over every heading (2° steps) at roll
    /// and pitch of −tilt, 0 and +tilt, noise-free readings of `truth` (raw = softIron·b + offset).
    static func worstTiltedHeadingError(softIron: Matrix3, offset: Vector3, tiltDegrees: Double,
                                        correct: (Vector3) -> Vector3, field: Vector3 = earthNED) -> Double {
        var worst = 0.0
        let t = radians(tiltDegrees)
        for roll in [-t, 0, t] {
            for pitch in [-t, 0, t] {
                for step in stride(from: 0, to: 360, by: 2) {
                    let attitude = Matrix3.rotation(roll: roll, pitch: pitch, yaw: radians(Double(step)))
                    let body = attitude.transposed * field
                    let world = attitude * correct(softIron * body + offset)
                    let got = degrees(atan2(world.y, world.x)), truth = degrees(atan2(field.y, field.x))
                    worst = max(worst, abs(angleDifference(got, truth)))
                }
            }
        }
        return worst
    }

    /// Attitudes of a tumble that never turns the field further than `maximumPolarDegrees` from
    /// the body's +z axis (the board is never turned fully upside down): the coverage of the
    /// sphere of field directions is (1 − cos max)/2.
    static func partialTumble(seconds: Double, rate: Double, seed: UInt64, maximumPolarDegrees: Double,
                              field: Vector3 = earthNED) -> [Matrix3] {
        let limit = cos(radians(maximumPolarDegrees))
        let f = field / field.norm
        return tumble(seconds: seconds, rate: rate, seed: seed).filter { ($0.transposed * f).z >= limit }
    }

    /// Spread of |B| after a plain algebraic ellipsoid fit to every sample (the reference a
    /// calibration should match), %.
    static func algebraicSpreadPercent(_ raw: [Vector3]) -> Double? {
        guard let fit = EllipsoidFit.algebraic(raw) else { return nil }
        return spreadPercent(raw.map(fit.apply))
    }

    /// Readings restricted to one plane: a flat 360° turn (optionally with a small wobble).
    static func flatTurn(_ sensor: SyntheticSensor, count: Int, wobbleDegrees: Double, seed: UInt64) -> [Vector3] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let yaw = 2 * .pi * Double(i) / Double(count) * 3
            let tilt = radians(wobbleDegrees) * sin(Double(i) * 0.05)
            let att = Matrix3.rotation(roll: tilt, pitch: 0, yaw: yaw)
            return sensor.read(att.transposed * earthNED, &rng)
        }
    }
}

/// The real recording's magnetometer columns (gauss).
enum RealRecording {
    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("calibration/data/acc_mag_log.csv")
    }

    /// (accelerometer g, magnetometer gauss) rows.
    static func load() throws -> [(acc: Vector3, mag: Vector3)] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows: [(Vector3, Vector3)] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard f.count == 6 else { continue }
            rows.append((Vector3(f[0], f[1], f[2]), Vector3(f[3], f[4], f[5])))
        }
        return rows
    }
}

/// std/mean of magnitudes, %.
func spreadPercent(_ v: [Vector3]) -> Double {
    let m = v.map(\.norm)
    let mean = m.reduce(0, +) / Double(m.count)
    let variance = m.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(m.count)
    return variance.squareRoot() / mean * 100
}
