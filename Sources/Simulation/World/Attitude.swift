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
    public let name: String

    public init(name: String, _ function: @escaping @Sendable (Double) -> Attitude) {
        self.name = name
        self.function = function
    }

    /// The attitude at time `t` seconds since the start.
    public func attitude(at t: Double) -> Attitude { function(t) }

    /// The default: turning slowly on a table (one turn in `period` seconds, pausing now and then),
    /// with small tilts of a few degrees as a hand would leave it.
    public static func tableTurn(period: Double = 60, tilt: Double = 3) -> AttitudeScenario {
        AttitudeScenario(name: "table") { t in
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
    }

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

    /// A tumble through every orientation, as for calibration: smooth, covering the whole sphere in
    /// about `period` seconds.
    public static func tumble(period: Double = 60) -> AttitudeScenario {
        AttitudeScenario(name: "tumble") { t in
            let u = t / period * 2 * .pi
            return Attitude(roll: 180 * sin(u * 3.1 + 0.3), pitch: 80 * sin(u * 1.7 + 1.1),
                            yaw: (u * 4.3 * 180 / .pi).truncatingRemainder(dividingBy: 360))
        }
    }
}
