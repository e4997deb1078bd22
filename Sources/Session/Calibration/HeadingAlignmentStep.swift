import Calibration
import Geodesy
import Heading
import Linear
import Platform
import Simulation

/// The heading alignment step (`--align`): point the board's front at a landmark whose bearing is
/// known, hold it level and still; the calibrated (and, with an accelerometer, tilt-compensated)
/// magnetic heading is averaged for about 3 s and the difference to the landmark's magnetic
/// bearing becomes the profile's mounting yaw offset (added to the magnetic heading).
///
/// The bearing may be typed in any form `parseBearing` reads ("123", "123°T", "SE", "北偏东30度").
/// A true bearing (T, or no reference when the location is known) is turned into a magnetic one
/// with the WMM declination; an M bearing is used as it is.
///
/// Aligning with the GNSS course while driving straight comes with the deviation learner; only the
/// landmark way is implemented here.
///
/// ```swift
/// if let offset = runHeadingAlignment(profile: profile, sensor: sensor, input: input, inbox: inbox,
///                                     place: here, bearingText: nil) { profile.yawOffsetDegrees = offset }
/// ```
func runHeadingAlignment(profile: CalibrationProfile, sensor: CalibrationSensor, input: PromptInput,
                         inbox: ControlInbox, place: ExpectedPlace?, bearingText: String?) -> Double? {
    let out = input.output
    out.write("\nHeading alignment: point the board's front (x arrow) at a landmark whose bearing you know "
              + "(from a map, or sighted with a compass), and hold it level and still.\n")
    var target: (magnetic: Double, explanation: String)?
    var given = bearingText
    for _ in 0..<3 where target == nil {
        let text: String
        if let g = given {
            text = g
            given = nil
        } else {
            out.write("Bearing to the landmark (e.g. 123, 123°T, 118M, SE, 北偏东30度): ")
            guard let line = input.readLine() else { return nil }
            text = line
        }
        do {
            let parsed = try parseBearingWithReference(text.promptTrimmed)
            target = magneticBearing(parsed, place: place)
            if target == nil {
                out.write("  '\(sanitize(text))' is a true bearing, but the declination is unknown: give --location LAT,LON, "
                          + "or type the magnetic bearing with an M (e.g. 118M)\n")
            }
        } catch {
            out.write("  " + error.message + "\n")
        }
    }
    guard let target else { return nil }
    if let hand = sensor.hand {
        // The simulated person points the board at the landmark: its true heading is the bearing.
        let declination = sensor.world?.declination ?? place?.declination ?? 0
        hand.hold(Attitude(roll: 0, pitch: 0, yaw: target.magnetic + declination))
    }
    guard input.waitForEnter("Pointing at it, level and still? [Enter] ") else { return nil }
    out.write("Hold still… (3 s)\n")
    let reader = sensor.makeReader(inbox: inbox)
    var sum = Vector3.zero
    var count = 0
    let end = sensor.now() + 3
    while sensor.now() < end, !inbox.stopRequested {
        guard let sample = reader.next(timeout: 0.1 * sensor.speed) else { continue }
        let field = profile.apply(sample.field)
        var tilt = Tilt.level
        if let a = sample.acceleration {
            tilt = Tilt(gravity: profile.accelerometer?.apply(a) ?? a) ?? .level
        }
        sum += tilt.levelled(field)
        count += 1
    }
    sensor.hand?.resumeTumbling()
    guard count >= 3, !inbox.stopRequested else {
        out.write("no readings came while holding still; the heading was not aligned\n")
        return nil
    }
    let measured = Tilt.heading(ofLevelled: sum / Double(count))
    let offset = angleDifference(target.magnetic, measured)
    out.write("measured " + fixed(measured, 1) + "° magnetic, landmark " + fixed(wrap360(target.magnetic), 1)
              + "° magnetic (" + target.explanation + "): heading offset " + (offset >= 0 ? "+" : "") + fixed(offset, 1) + "°\n")
    return offset
}

/// The landmark's magnetic bearing, or nil when a true bearing cannot be converted.
private func magneticBearing(_ parsed: ParsedBearing, place: ExpectedPlace?) -> (magnetic: Double, explanation: String)? {
    switch parsed.reference {
    case .magneticNorth?:
        return (parsed.degrees, "as typed")
    case .trueNorth?, nil:
        guard let place else {
            if parsed.reference == nil { return (parsed.degrees, "taken as magnetic: no --location for the declination") }
            return nil
        }
        let magnetic = wrap360(parsed.degrees - place.declination)
        return (magnetic, fixed(parsed.degrees, 1) + "° true − " + fixed(place.declination, 1) + "° declination")
    }
}


