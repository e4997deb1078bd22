import Geodesy
import Glibc
import GNSS
import Linear
import Platform

// The physics of `GNSSWalk`: the true motion, the error processes, and the reported fix.
extension GNSSWalk {
    /// Moves the true position one step: pauses now and then, wanders in heading, turns back
    /// toward home when too far out, and eases speed toward the cruise speed.
    mutating func advance(_ dt: Double) {
        if let steering {
            follow(steering, dt)
            return
        }
        if pauseLeft > 0 {
            pauseLeft -= dt
            trueSpeed = max(0, trueSpeed - 2 * dt)
        } else if rng.nextUnit() < settings.pauseChancePerSecond * dt {
            let range = settings.pauseSeconds
            pauseLeft = range.lowerBound + rng.nextUnit() * (range.upperBound - range.lowerBound)
            trueSpeed = max(0, trueSpeed - 2 * dt)
        } else {
            let target = settings.cruiseSpeed * (1 + 0.08 * rng.nextGaussian())
            trueSpeed += (target - trueSpeed) * min(1, 0.5 * dt)
            trueSpeed = max(0, trueSpeed)
        }
        heading += rng.nextGaussian() * settings.headingWander * dt.squareRoot()
        if let home = try? GeoPoint(latitude: homeLatitude, longitude: homeLongitude),
           let here = try? GeoPoint(latitude: trueLatitude, longitude: trueLongitude) {
            let back = Geodesic.inverse(here, home)
            if back.distance > settings.roamRadius {
                // Turn toward home by up to 15° per second.
                let turn = remainder(back.azimuth1 - heading, 360)
                heading += max(-15 * dt, min(15 * dt, turn))
            }
            heading = normalizeDegrees(heading)
            if trueSpeed > 0, let moved = try? Geodesic.direct(from: here, azimuth: heading, distance: trueSpeed * dt) {
                trueLatitude = moved.point.latitude
                trueLongitude = normalizeLongitude(moved.point.longitude)
            }
        }
    }

    /// Steps the slowly drifting (first-order Gauss–Markov) position error and the reported eph.
    /// Moves along a vehicle's ground track: the midpoint of the step's course and speed, so turns and
    /// launches land where the vehicle went.
    private mutating func follow(_ steering: @Sendable (Double) -> GroundTrack, _ dt: Double) {
        let elapsed = Double(count) * (settings.interval > 0 && settings.interval.isFinite ? settings.interval : 1)
        let middle = steering(elapsed - dt / 2)
        let now = steering(elapsed)
        guard middle.speed.isFinite, middle.course.isFinite, now.speed.isFinite, now.course.isFinite else { return }
        trueSpeed = max(0, now.speed)
        heading = normalizeDegrees(now.course)
        guard middle.speed > 0, let here = try? GeoPoint(latitude: trueLatitude, longitude: trueLongitude),
              let moved = try? Geodesic.direct(from: here, azimuth: middle.course, distance: middle.speed * dt) else { return }
        trueLatitude = moved.point.latitude
        trueLongitude = normalizeLongitude(moved.point.longitude)
    }

    mutating func updateError(_ dt: Double) {
        let tau = max(1, settings.errorCorrelationSeconds)
        let a = exp(-dt / tau)
        let b = (1 - a * a).squareRoot()
        let sigma = positionSigma
        errorNorth = a * errorNorth + b * sigma * rng.nextGaussian()
        errorEast = a * errorEast + b * sigma * rng.nextGaussian()
        errorUp = a * errorUp + b * sigma * 1.5 * rng.nextGaussian()
        let slow = exp(-dt / 60)
        ephDrift = slow * ephDrift + (1 - slow * slow).squareRoot() * 0.15 * rng.nextGaussian()
    }

    /// The fix a receiver would report now: true position plus drifting and white error, rounded
    /// to gpsd's nine decimals, with speed, course and error estimates.
    mutating func makeFix(time: Double) -> Fix {
        let white = 0.25
        let north = errorNorth + white * rng.nextGaussian()
        let east = errorEast + white * rng.nextGaussian()
        let phi = trueLatitude * .pi / 180
        // Metres per degree of latitude and longitude on WGS84 (series good to centimetres).
        let perDegreeLat = 111_132.954 - 559.822 * cos(2 * phi) + 1.175 * cos(4 * phi)
        let perDegreeLon = max(1, 111_412.84 * cos(phi) - 93.5 * cos(3 * phi))
        let lat = min(90, max(-90, trueLatitude + north / perDegreeLat))
        let lon = normalizeLongitude(trueLongitude + east / perDegreeLon)
        let eph = max(0.5, settings.horizontalError * (1 + ephDrift))
        let moving = trueSpeed > 0.3
        let speed = max(0, trueSpeed + 0.08 * rng.nextGaussian())
        let course = moving ? normalizeDegrees(heading + 3 * rng.nextGaussian()) : nil
        let altHAE = 58 + errorUp
        return Fix(time: time, mode: .threeD, lat: roundTo9(lat), lon: roundTo9(lon),
                   altHAE: roundTo(altHAE, 3), altMSL: roundTo(altHAE - 22.3, 3),
                   course: course.map { roundTo($0, 4) }, speed: roundTo(speed, 3),
                   climb: roundTo(0.05 * rng.nextGaussian(), 3),
                   eph: roundTo(eph, 3), epx: roundTo(eph * 0.71, 3), epy: roundTo(eph * 0.74, 3),
                   epv: roundTo(eph * 1.7, 3), eps: roundTo(eph * 0.1 + 0.2, 2),
                   epd: moving ? roundTo(min(180, 2 + 30 / max(0.5, trueSpeed)), 4) : nil,
                   device: "simulator")
    }
}

/// Longitude in [−180, 180).
private func normalizeLongitude(_ lon: Double) -> Double {
    var x = remainder(lon, 360)
    if x >= 180 { x -= 360 }
    return x
}

private func roundTo9(_ value: Double) -> Double { roundTo(value, 9) }

/// `value` as gpsd's printed digits would read back: rounded to `decimals` places.
private func roundTo(_ value: Double, _ decimals: Int) -> Double { roundedToDecimals(value, decimals) }
