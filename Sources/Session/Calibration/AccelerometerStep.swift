import Calibration
import Linear
import Platform
import Sensors
import Simulation

/// The six still poses of the accelerometer calibration, in the order they are asked for.
enum AccelerometerPose: CaseIterable {
    case topUp, bottomUp, frontUp, backUp, rightUp, leftUp

    var instruction: String {
        switch self {
        case .topUp: return "Place the board flat, component side up, keep still…"
        case .bottomUp: return "Turn it upside down (component side down), flat, keep still…"
        case .frontUp: return "Stand it on its back edge, front (x arrow) pointing up, keep still…"
        case .backUp: return "Stand it on its front edge, front pointing down, keep still…"
        case .rightUp: return "Stand it on its left edge, right side (y arrow) up, keep still…"
        case .leftUp: return "Stand it on its right edge, left side up, keep still…"
        }
    }

    /// Where the simulated hand puts the board for this pose.
    var attitude: Attitude {
        switch self {
        case .topUp: return Attitude(roll: 0, pitch: 0, yaw: 30)
        case .bottomUp: return Attitude(roll: 180, pitch: 0, yaw: 30)
        case .frontUp: return Attitude(roll: 0, pitch: 89.9, yaw: 30)
        case .backUp: return Attitude(roll: 0, pitch: -89.9, yaw: 30)
        case .rightUp: return Attitude(roll: -90, pitch: 0, yaw: 30)
        case .leftUp: return Attitude(roll: 90, pitch: 0, yaw: 30)
        }
    }
}

/// The optional accelerometer step (`--accel`): six still poses averaged for about a second each,
/// fitted with `AccelerometerCalibration.sixPosition`. Returns nil when the user stops, the board
/// will not keep still, or the fit fails (each with a message on stdout).
///
/// ```swift
/// if let cal = runAccelerometerStep(sensor: sensor, input: input, inbox: inbox) { profile.accelerometer = cal }
/// ```
func runAccelerometerStep(sensor: CalibrationSensor, input: PromptInput, inbox: ControlInbox) -> AccelerometerCalibration? {
    let out = input.output
    out.write("\nAccelerometer calibration: six still poses, one with each side of the board facing up.\n")
    let reader = sensor.makeReader(inbox: inbox)
    var readings: [Vector3] = []
    var poses = AccelerometerPose.allCases[...]
    var attempts = 0
    while let pose = poses.first {
        sensor.hand?.hold(pose.attitude)
        guard input.waitForEnter("  \(readings.count + 1)/6 " + pose.instruction + " [Enter] ") else {
            out.write("\naccelerometer calibration stopped; it was not saved\n")
            sensor.hand?.resumeTumbling()
            return nil
        }
        guard let average = averageStillAcceleration(reader: reader, sensor: sensor, seconds: 1, inbox: inbox) else {
            attempts += 1
            out.write("  the board moved (or no accelerometer reading came): keep it still and press Enter again\n")
            if attempts >= 5 { out.write("  giving up on the accelerometer calibration\n"); return nil }
            continue
        }
        out.write("  " + [average.x, average.y, average.z].map { fixed($0, 3) }.joined(separator: " ") + " g\n")
        readings.append(average)
        poses = poses.dropFirst()
    }
    sensor.hand?.resumeTumbling()
    do {
        let cal = try AccelerometerCalibration.sixPosition(readings)
        out.write("accelerometer: offset " + [cal.offset.x, cal.offset.y, cal.offset.z].map { fixed($0, 4) }.joined(separator: " ")
                  + " g, scale " + [cal.scale.x, cal.scale.y, cal.scale.z].map { fixed($0, 4) }.joined(separator: " ") + "\n")
        return cal
    } catch {
        out.write("accelerometer calibration failed: " + error.message + "\n")
        return nil
    }
}

/// The mean accelerometer reading over `seconds` of sensor time, after half a second for the
/// board (and the hand on it) to settle; nil when the board moved (spread over 0.03 g), no reading
/// came, or a signal arrived.
func averageStillAcceleration(reader: MagnetometerReader, sensor: CalibrationSensor, seconds: Double,
                              inbox: ControlInbox) -> Vector3? {
    var values: [Vector3] = []
    let settled = sensor.now() + 0.5
    let end = settled + seconds
    while sensor.now() < end, !inbox.stopRequested {
        if let sample = reader.next(timeout: 0.1 * sensor.speed), let a = sample.acceleration, sample.monotonic >= settled {
            values.append(a)
        }
    }
    guard values.count >= 3 else { return nil }
    let mean = Linear.mean(values) ?? .zero
    let spread = (values.reduce(0.0) { $0 + ($1 - mean).squaredNorm } / Double(values.count)).squareRoot()
    return spread < 0.03 ? mean : nil
}
