import Glibc
import Linear

/// How a simulated vehicle moves over the ground at one instant.
public struct GroundTrack: Sendable, Equatable {
    /// True course over the ground, degrees clockwise from north.
    public var course: Double
    /// Speed over the ground, m/s.
    public var speed: Double

    public init(course: Double, speed: Double) {
        self.course = course
        self.speed = speed
    }
}

private let standardGravity = 9.80665

extension AttitudeScenario {
    /// A sailing boat at 3 m/s on a course of `course`° (yaw is true): heeled 8° to port by the wind,
    /// rolling in a swell of three components (7° at 0.13 Hz, 3° at 0.21 Hz, 2° at 0.31 Hz: up to
    /// ±20° with the heel, and moments when the roll almost stops, as a real swell's beats make),
    /// pitching ±4.5° in two components, heaving ±0.2 g and yawing ±4.5°; 45 s in, and every 90 s
    /// after, she tacks through 90° in 12 s, and the heel changes side. The heading a compass should
    /// hold is steady; the accelerometer alone sees the heave and the roll.
    public static func boat(course: Double = 70) -> AttitudeScenario {
        let tackPeriod = 90.0, tackDuration = 12.0, speed = 3.0
        @Sendable func courseAndSide(_ time: Double) -> (course: Double, side: Double, rate: Double) {
            // The first tack comes 45 s in.
            let t = time + tackPeriod - 45
            let n = (t / tackPeriod).rounded(.down) - 1
            let into = t - (n + 1) * tackPeriod
            let tacking = into < tackDuration
            let progress = tacking ? 0.5 - 0.5 * cos(.pi * into / tackDuration) : 1
            let from = n.truncatingRemainder(dividingBy: 2) == 0 ? 0.0 : 90.0
            let to = from == 0 ? 90.0 : 0.0
            let c = course + from + (to - from) * progress
            let side = (from == 0 ? -1.0 : 1.0) * (1 - 2 * progress)
            // d(course)/dt, degrees per second, for the centripetal acceleration of the tack.
            let rate = tacking ? (to - from) * 0.5 * (Double.pi / tackDuration) * sin(.pi * into / tackDuration) : 0
            return (c, tacking ? side : (to == 0 ? -1 : 1), rate)
        }
        return AttitudeScenario(name: "boat", acceleration: { t in
            let s = courseAndSide(t)
            let c = radians(s.course)
            let across = speed * radians(s.rate) / standardGravity
            let heave = 0.12 * sin(2 * .pi * 0.13 * t + 0.4) + 0.08 * sin(2 * .pi * 0.21 * t + 1.3)
            return Vector3(-across * sin(c), across * cos(c), heave)
        }, groundTrack: { t in
            GroundTrack(course: courseAndSide(t).course.truncatingRemainder(dividingBy: 360), speed: speed)
        }) { t in
            let s = courseAndSide(t)
            let roll = 7 * sin(2 * .pi * 0.13 * t) + 3 * sin(2 * .pi * 0.21 * t + 0.7) + 2 * sin(2 * .pi * 0.31 * t + 2.1)
            let pitch = 3 * sin(2 * .pi * t / 4.5 + 1) + 1.5 * sin(2 * .pi * 0.17 * t + 0.3)
            let yaw = s.course + 3 * sin(2 * .pi * t / 9) + 1.5 * sin(2 * .pi * 0.21 * t + 2)
            return Attitude(roll: 8 * s.side + roll, pitch: pitch, yaw: yaw.truncatingRemainder(dividingBy: 360))
        }
    }

    /// A car: every 40 s it pulls away at 0.3 g to 15 m/s, drives straight, turns 90° to the right
    /// at 10°/s (0.27 g towards the inside of the turn), and brakes at 0.4 g to a stop. Level but for
    /// the body leaning 2° in the turn and pitching 1° under acceleration and braking. Every change of
    /// acceleration and lean takes half a second, as a real car's does (a body does not jump).
    public static func car(course: Double = 20) -> AttitudeScenario {
        let g = standardGravity, top = 15.0, ease = 0.5
        let start = 0.5, launch = top / (0.3 * g), brake = top / (0.4 * g)
        let cycle = 40.0, turnStart = 12.0, turnDuration = 9.0, stop = cycle - 4
        // 0 before `edge`, 1 after, a straight ramp `ease` wide around it.
        @Sendable func step(_ x: Double, _ edge: Double) -> Double { min(1, max(0, (x - edge) / ease + 0.5)) }
        // ∫ step: how far past the ramp's middle the running total has got (seconds).
        @Sendable func stepIntegral(_ x: Double, _ edge: Double) -> Double {
            let u = x - edge
            if u <= -ease / 2 { return 0 }
            if u >= ease / 2 { return u }
            let v = u + ease / 2
            return v * v / (2 * ease)
        }
        @Sendable func state(_ t: Double) -> (course: Double, speed: Double, along: Double, turnRate: Double, lean: Double) {
            let n = (t / cycle).rounded(.down)
            let into = t - n * cycle
            // Acceleration along the road (g) as ramps: +0.3 g from `start` to the end of the launch,
            // −0.4 g for the braking that ends at `stop`.
            let along = 0.3 * (step(into, start) - step(into, start + launch))
                - 0.4 * (step(into, stop - brake) - step(into, stop))
            let speed = g * (0.3 * (stepIntegral(into, start) - stepIntegral(into, start + launch))
                - 0.4 * (stepIntegral(into, stop - brake) - stepIntegral(into, stop)))
            let turning = step(into, turnStart) - step(into, turnStart + turnDuration)
            // The course turns at 10°/s times the ramped rate; its integral is exact like the speed's.
            let turned = 10 * (stepIntegral(into, turnStart) - stepIntegral(into, turnStart + turnDuration))
            return (course + 90 * n + turned, max(0, speed), along, 10 * turning, 2 * turning)
        }
        return AttitudeScenario(name: "car", acceleration: { t in
            let s = state(t)
            let c = radians(s.course)
            let across = s.speed * radians(s.turnRate) / g
            return Vector3(s.along * cos(c) - across * sin(c), s.along * sin(c) + across * cos(c), 0)
        }, groundTrack: { t in
            let s = state(t)
            return GroundTrack(course: s.course.truncatingRemainder(dividingBy: 360), speed: s.speed)
        }) { t in
            let s = state(t)
            return Attitude(roll: s.lean, pitch: -2.5 * s.along, yaw: s.course.truncatingRemainder(dividingBy: 360))
        }
    }

    /// A walk with the board in the hand, held ahead and tipped 20° up to be read: 1.4 m/s, each
    /// step (2 per second) bouncing it ±0.25 g up and down and swaying it ±0.1 g and ±4° of roll
    /// from side to side. Every 15 s the walker turns quickly: 90° in 1.2 s (peaking at 120°/s,
    /// 0.3 g towards the inside), left and right in turn, with a 180° about-turn every fourth time;
    /// 5 s of every minute are spent standing still, the hand never quite steady.
    public static func walk(course: Double = 200) -> AttitudeScenario {
        let speed = 1.4, turnEvery = 15.0, turnDuration = 1.2
        // Walking (1) or standing (0), with a smooth second to stop and to start again: 5 s of every
        // minute are spent standing; and its rate of change, per second.
        @Sendable func walking(_ t: Double) -> (level: Double, rate: Double) {
            let m = t - 60 * (t / 60).rounded(.down)
            func ramp(_ x: Double) -> (Double, Double) { (0.5 - 0.5 * cos(.pi * x), 0.5 * .pi * sin(.pi * x)) }
            if m >= 49 && m < 50 { let r = ramp(m - 49); return (1 - r.0, -r.1) }
            if m >= 50 && m < 54 { return (0, 0) }
            if m >= 54 && m < 55 { return ramp(m - 54) }
            return (1, 0)
        }
        @Sendable func state(_ t: Double) -> (course: Double, rate: Double, speed: Double, level: Double, along: Double) {
            let n = max(0, (t / turnEvery).rounded(.down))
            // Course after `k` completed turns: +90, −90, +90, +180, repeating.
            @Sendable func turn(_ k: Double) -> Double {
                switch Int(k.truncatingRemainder(dividingBy: 4)) { case 0: return 90; case 1: return -90; case 2: return 90; default: return 180 }
            }
            var c = course
            let whole = Int(n)
            c += Double(whole / 4) * 270
            for k in 0..<(whole % 4) { c += turn(Double(k)) }
            let into = t - n * turnEvery
            var rate = 0.0
            let start = turnEvery - turnDuration
            if into > start {
                let amount = turn(n)
                let x = (into - start) / turnDuration
                c += amount * (0.5 - 0.5 * cos(.pi * x))
                rate = amount * 0.5 * (.pi / turnDuration) * sin(.pi * x)
            }
            let w = walking(t)
            return (c.truncatingRemainder(dividingBy: 360), rate, speed * w.level, w.level,
                    speed * w.rate / standardGravity)
        }
        return AttitudeScenario(name: "walk", acceleration: { t in
            let s = state(t)
            let c = radians(s.course)
            let across = s.speed * radians(s.rate) / standardGravity + s.level * 0.1 * sin(2 * .pi * t)   // one sway per two steps
            return Vector3(s.along * cos(c) - across * sin(c), s.along * sin(c) + across * cos(c),
                           s.level * 0.25 * sin(4 * .pi * t))
        }, groundTrack: { t in
            let s = state(t)
            return GroundTrack(course: s.course < 0 ? s.course + 360 : s.course, speed: s.speed)
        }) { t in
            let s = state(t)
            let stepping = 0.2 + 0.8 * s.level
            // The hand leans into a quick turn and shakes a little with every step.
            return Attitude(roll: stepping * 4 * sin(2 * .pi * t) + 0.08 * s.rate + 1.5 * sin(2 * .pi * t / 7),
                            pitch: 20 + stepping * 2 * sin(4 * .pi * t + 0.5) + 2 * sin(2 * .pi * t / 11),
                            yaw: s.course + stepping * 3 * sin(2 * .pi * t + 1))
        }
    }
}
