import Glibc
import Linear

/// The board's attitude at one instant: aerospace Euler angles in degrees.
public struct Attitude: Sendable, Equatable {
    public var roll: Double
    public var pitch: Double
    /// True heading of the body x axis, degrees (0 = true north).
    public var yaw: Double

    public init(roll: Double, pitch: Double, yaw: Double) {
        self.roll = roll
        self.pitch = pitch
        self.yaw = yaw
    }

    /// The Euler angles of a body-to-NED rotation matrix (at pitch ±90°, roll is taken as 0).
    public init(bodyToNED r: Matrix3) {
        let sinPitch = min(1, max(-1, -r[2, 0]))
        pitch = degrees(asin(sinPitch))
        if abs(sinPitch) > 1 - 1e-12 {
            roll = 0
            yaw = degrees(atan2(-r[0, 1], r[1, 1]))
        } else {
            roll = degrees(atan2(r[2, 1], r[2, 2]))
            yaw = degrees(atan2(r[1, 0], r[0, 0]))
        }
    }

    /// Rotation taking body vectors to NED.
    public var bodyToNED: Matrix3 { Matrix3.rotation(roll: radians(roll), pitch: radians(pitch), yaw: radians(yaw)) }
}

/// How the board moves over time in a simulation.
///
/// ```swift
/// let scenario = AttitudeScenario.tableTurn()
/// let attitude = scenario.attitude(at: 12.5)
/// ```
public struct AttitudeScenario: Sendable {
    private let function: @Sendable (Double) -> Attitude
    private let accelerationFunction: (@Sendable (Double) -> Vector3)?
    private let groundTrackFunction: (@Sendable (Double) -> GroundTrack)?
    public let name: String

    /// A scenario from its attitude over time and, for a moving vehicle, its own acceleration over
    /// time (NED, g; nil: the board does not accelerate, so the accelerometer reads gravity alone)
    /// and the way it moves over the ground (nil: the simulated receiver wanders on its own).
    public init(name: String, acceleration: (@Sendable (Double) -> Vector3)? = nil,
                groundTrack: (@Sendable (Double) -> GroundTrack)? = nil,
                _ function: @escaping @Sendable (Double) -> Attitude) {
        self.name = name
        self.function = function
        accelerationFunction = acceleration
        groundTrackFunction = groundTrack
    }

    /// How the board moves over the ground at time `t` (true course, speed), if the scenario says:
    /// the simulated receiver then follows it, so its course agrees with the simulated heading.
    public func groundTrack(at t: Double) -> GroundTrack? { groundTrackFunction?(t) }

    /// The ground track over time, if the scenario moves over the ground.
    public var groundTrackOverTime: (@Sendable (Double) -> GroundTrack)? { groundTrackFunction }

    /// The attitude at time `t` seconds since the start.
    public func attitude(at t: Double) -> Attitude { function(t) }

    /// The board's own acceleration at time `t` (NED, g): what the accelerometer reads besides gravity.
    public func acceleration(at t: Double) -> Vector3 { accelerationFunction?(t) ?? .zero }

    /// The default: turning slowly on a table (one turn in `period` seconds, pausing now and then),
    /// with small tilts of a few degrees as a hand would leave it.
    /// The receiver beside it walks where the board points, at 1.2 m/s (so the demo's course and
    /// heading agree).
    public static func tableTurn(period: Double = 60, tilt: Double = 3) -> AttitudeScenario {
        @Sendable func attitude(_ t: Double) -> Attitude {
            // Turn in 45° steps with smooth moves between pauses, so the display both moves and settles.
            let stepDuration = period / 8
            let phase = t / stepDuration
            let whole = phase.rounded(.down)
            let fraction = phase - whole
            let move = fraction < 0.5 ? 0.5 - 0.5 * cos(2 * .pi * fraction) : 1
            let yaw = (whole + move) * 45 + 10
            return Attitude(roll: tilt * sin(2 * .pi * t / 7.3), pitch: tilt * 0.7 * sin(2 * .pi * t / 11.1 + 1),
                            yaw: yaw.truncatingRemainder(dividingBy: 360))
        }
        return AttitudeScenario(name: tableName, groundTrack: { t in GroundTrack(course: attitude(t).yaw, speed: 1.2) },
                                attitude)
    }

    /// The vehicles `--scenario` names, with the default first.
    public static func named(_ name: String) -> AttitudeScenario? {
        switch name.lowercased() {
        case tableName: return .tableTurn()
        case "boat": return .boat()
        case "car": return .car()
        case "walk": return .walk()
        default: return nil
        }
    }
    public static let scenarioNames = [tableName, "boat", "car", "walk"]
    /// The board turning on a table: the scenario when none is named.
    public static let tableName = "table"

    /// A constant attitude.
    public static func fixed(_ attitude: Attitude) -> AttitudeScenario {
        AttitudeScenario(name: "fixed") { _ in attitude }
    }

    /// A steady spin at `degreesPerSecond`, level.
    public static func spin(degreesPerSecond: Double) -> AttitudeScenario {
        AttitudeScenario(name: "spin") { t in
            Attitude(roll: 0, pitch: 0, yaw: (degreesPerSecond * t).truncatingRemainder(dividingBy: 360))
        }
    }

    /// A calibration tumble, as a person does it while watching the coverage map: the Earth's field,
    /// seen from the board, spirals from the board's bottom (+z) to its top (−z) in `period` seconds
    /// and back again, turning once around the board every `period / 10` seconds (18° between turns,
    /// finer than the 100-region coverage grid). It covers every direction in one `period`; the
    /// angular rate stays under about 90°/s for the default 40 s.
    ///
    /// The path is planned in the board's frame, so it needs the field's direction (NED; any
    /// magnitude): pass the simulated world's field.
    ///
    /// ```swift
    /// let scenario = AttitudeScenario.tumble(period: 40, field: SimulatedWorld.sydney.field)
    /// ```
    public static func tumble(period: Double = 40, field: Vector3 = SimulatedWorld.sydney.field) -> AttitudeScenario {
        let pass = period.isFinite && period > 0 ? period : 40
        let turn = pass / 10
        // A fixed NED frame whose first axis is the field direction.
        let f = field.normalized ?? Vector3(1, 0, 0)
        let helper = abs(f.z) < 0.9 ? Vector3(0, 0, 1) : Vector3(1, 0, 0)
        let u = helper.cross(f).normalized ?? Vector3(0, 1, 0)
        let w = f.cross(u)
        let fieldFrame = Matrix3(rows: Vector3(f.x, u.x, w.x), Vector3(f.y, u.y, w.y), Vector3(f.z, u.z, w.z))
        return AttitudeScenario(name: "tumble") { t in
            // Polar angle of the field in the body frame: a triangle wave, pole to pole and back.
            var s = (max(0, t) / pass).truncatingRemainder(dividingBy: 2)
            if s > 1 { s = 2 - s }
            let theta = Double.pi * s
            let phi = 2 * Double.pi * t / turn
            let (st, ct, sp, cp) = (sin(theta), cos(theta), sin(phi), cos(phi))
            // Rows: the field direction in the body frame and two directions square to it
            // (the spherical frame r̂, θ̂, φ̂), i.e. the transpose of the body-side frame.
            let bodyFrameTransposed = Matrix3(rows: Vector3(st * cp, st * sp, ct),
                                              Vector3(ct * cp, ct * sp, -st),
                                              Vector3(-sp, cp, 0))
            // body → NED maps the body-frame field direction onto the NED field direction.
            return Attitude(bodyToNED: fieldFrame * bodyFrameTransposed)
        }
    }
}
