import GNSS
import Glibc

/// A receiver's velocity over ground with the uncertainty the tracker assumes for it, and what
/// that makes of it: moving or not, and whether its course can be trusted.
///
/// Why velocity and not position: a receiver measures its velocity from the Doppler shift of the
/// carriers, good to a few cm/s, while its position wanders by metres to tens of metres (`eph` of
/// 5–100 m is normal). A boat at 3 m/s moves 3 m between 1 Hz fixes whose combined error is 15 m;
/// only the velocity tells it from a receiver at rest.
///
/// The speed's 1σ error (`speedError`) is `eps` clamped to
/// [`minimumSpeedError`, `defaultSpeedError`] (0.05…0.2 m/s), or `defaultSpeedError` without `eps`:
/// - Receiver specifications give 0.05 m/s (u-blox M8/F9) to 0.1 m/s (u-blox 6, SiRFstarIII,
///   MediaTek MT3339) for Doppler speed; they are median values under open sky, so 0.2 m/s (twice
///   the cheap receivers' figure) covers degraded signals, and no receiver is taken as better than
///   0.05 m/s.
/// - For receivers that send no speed error (every NMEA receiver), gpsd fills `eps` itself with
///   the error of differencing two positions, (e₁ + e₂)/Δt: 10–500 m/s at 1 Hz, or almost 0 after a
///   long gap. That number describes the positions, not the Doppler speed, so it can only pull the
///   assumed error toward the clamp's ends, never past them.
///
/// The speed is significant when it is at least `significance` (3) times its error: for a receiver
/// at rest the speed is the length of a 2D noise vector (Rayleigh), which exceeds 3σ in 1.1 % of
/// fixes when σ is right, and practically never when σ is the conservative 0.2 m/s. So with no
/// `eps` a receiver moving at 0.6 m/s or more is moving. The course's error is about
/// atan(σ / speed): at least 3σ keeps it under 19°, so the course is trusted only then, and never
/// when `epd` is 90° or more. (gpsd's own `epd`, filled in from two positions as
/// 2·asin(e / √(d² + e²)) only when the move d exceeds the error e, is always below 90°; so only a
/// receiver that itself calls its course meaningless withdraws it.)
///
/// ```swift
/// let v = GroundVelocity(fix: Fix(mode: .threeD, lat: 0, lon: 0, course: 40, speed: 3, eph: 11))
/// v?.isMoving        // true: 3 m/s is 15σ
/// v?.trustedCourse   // 40
/// ```
public struct GroundVelocity: Sendable, Equatable {
    /// The speed error assumed when the fix gives none, m/s (1σ).
    public static let defaultSpeedError = 0.2
    /// The smallest speed error assumed, whatever the fix says, m/s (1σ).
    public static let minimumSpeedError = 0.05
    /// How many standard errors a speed must reach to count as movement.
    public static let significance = 3.0

    /// Speed over ground, m/s.
    public var speed: Double
    /// The 1σ error assumed for `speed`, m/s.
    public var speedError: Double
    /// The receiver's course over ground, degrees true, when it sent one.
    public var course: Double?
    /// The receiver's course error (`epd`), degrees, when it sent one.
    public var courseErrorReported: Double?

    /// A velocity from its parts; `speedError` is used as given (clamped to be positive).
    public init(speed: Double, speedError: Double, course: Double? = nil, courseErrorReported: Double? = nil) {
        self.speed = speed
        self.speedError = speedError.isFinite && speedError > 0 ? speedError : Self.defaultSpeedError
        self.course = course
        self.courseErrorReported = courseErrorReported
    }

    /// The velocity a fix reports, or nil when it carries no speed. `eps`, when present, is clamped
    /// to [`minimumSpeedError`, `defaultSpeedError`]; absent, `defaultSpeedError` is used.
    public init?(fix: Fix, defaultSpeedError: Double = GroundVelocity.defaultSpeedError) {
        guard let speed = fix.speed, speed.isFinite, speed >= 0 else { return nil }
        let ceiling = defaultSpeedError.isFinite && defaultSpeedError > 0 ? defaultSpeedError : Self.defaultSpeedError
        let floor = min(Self.minimumSpeedError, ceiling)
        let error = fix.eps.map { min(ceiling, max(floor, $0)) } ?? ceiling
        self.init(speed: speed, speedError: error, course: fix.course, courseErrorReported: fix.epd)
    }

    /// The smallest speed that counts as movement, m/s: `significance` × `speedError`.
    public var movingThreshold: Double { Self.significance * speedError }

    /// True when the speed is significantly above zero.
    public var isMoving: Bool { speed >= movingThreshold }

    /// The course's 1σ error implied by the speed and its error, degrees: atan(σ / speed), below 90;
    /// 180 at rest.
    public var courseError: Double {
        speed > 0 ? atan2(speedError, speed) * 180 / .pi : 180
    }

    /// The course, when the receiver is moving and does not itself call its course meaningless.
    public var trustedCourse: Double? {
        guard isMoving, let course, course.isFinite else { return nil }
        if let epd = courseErrorReported, epd >= 90 { return nil }
        return course
    }
}
