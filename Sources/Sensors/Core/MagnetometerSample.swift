import Linear
import Platform

/// One magnetometer reading as the rest of Lodestone sees it: body axes, orientation applied.
///
/// ```swift
/// if let sample = reader.next(timeout: 0.1) {
///     let heading = atan2(-sample.field.y, sample.field.x)
/// }
/// ```
public struct MagnetometerSample: Sendable, Equatable {
    /// Monotonic seconds when the sample was read (filters use this one).
    public var monotonic: Double
    /// Unix seconds when the sample was read (for logs).
    public var wall: Double
    /// Magnetic field in µT, body axes (x forward, y right, z down).
    public var field: Vector3
    /// The newest accelerometer reading in g, body axes, when an accelerometer is paired and its
    /// reading is fresh; nil otherwise.
    public var acceleration: Vector3?
    /// The gyroscope's rotation rate in degrees per second, body axes (positive x: right wing down,
    /// positive y: nose up, positive z: turning right), from the same chip sample as `acceleration`;
    /// nil when the paired chip has no gyroscope or its reading is not fresh.
    public var rotationRate: Vector3?

    public init(monotonic: Double, wall: Double, field: Vector3, acceleration: Vector3? = nil,
                rotationRate: Vector3? = nil) {
        self.monotonic = monotonic
        self.wall = wall
        self.field = field
        self.acceleration = acceleration
        self.rotationRate = rotationRate
    }
}

/// The time sources a `MagnetometerReader` uses, injectable so tests run on a manual clock without
/// sleeping. Deliberately not `Sendable`: a command's `sleep` may wait on its own `SignalWatcher`, so
/// the reader lives on the thread that made it.
///
/// ```swift
/// let clock = ManualClock()
/// let time = ReaderClock(monotonic: clock.now, wall: { 1.7e9 + clock.now() }, sleep: clock.advance(by:))
/// ```
public struct ReaderClock {
    public var monotonic: () -> Double
    public var wall: () -> Double
    /// Sleeps for the given number of seconds (may return early, e.g. on a signal).
    public var sleep: (Double) -> Void

    public init(monotonic: @escaping () -> Double, wall: @escaping () -> Double, sleep: @escaping (Double) -> Void) {
        self.monotonic = monotonic
        self.wall = wall
        self.sleep = sleep
    }

    /// The system's monotonic and wall clocks and `nanosleep`.
    public static var system: ReaderClock {
        ReaderClock(monotonic: { Clock.monotonic() }, wall: { Clock.wall() }, sleep: { Clock.sleep(seconds: $0) })
    }
}

/// How patient a `MagnetometerReader` is. The defaults suit a hobby I²C bus.
public struct ReaderPolicy: Sendable {
    /// Delay before the first retry after a failed transfer; doubles with each failure.
    public var retryDelay = 0.002
    /// Longest delay between retries: also how soon a returning device is noticed.
    public var maxRetryDelay = 0.25
    /// Seconds of unbroken failure before the sensor counts as not responding (and is re-initialised
    /// when it answers again).
    public var notRespondingAfter = 0.5
    /// Data-ready timeout in sample periods…
    public var noDataPeriods = 5.0
    /// …but never shorter than this many seconds.
    public var minimumNoDataTimeout = 0.1
    /// While no data arrives, re-initialise the chip at most this often (seconds).
    public var reconfigureInterval = 1.0
    /// Identical readings for this many seconds flag the sensor as stuck…
    public var stuckAfter = 3.0
    /// …provided at least this many identical samples arrived in that time.
    public var stuckMinimumSamples = 10
    /// An accelerometer reading older than this (seconds) is not paired with a sample.
    public var accelerometerMaxAge = 0.5
    /// A gyroscope reading older than this (seconds) is not paired with a sample: a rate is only
    /// worth integrating over the interval it was measured in.
    public var rotationRateMaxAge = 0.1

    public init() {}
}

/// What the reader is going through, for the display.
public enum ReaderStatus: Sendable, Equatable {
    /// Samples are arriving.
    case ok
    /// Transfers are failing and being retried (`attempt` failures in a row so far).
    case retrying(attempt: Int, error: SensorError)
    /// Nothing has answered since `since` (monotonic seconds): unplugged, or power lost.
    case notResponding(since: Double)
    /// The chip answers but has produced no data since `since`.
    case noData(since: Double)
    /// Identical readings since `since`.
    case stuck(since: Double)
}

/// Running totals, for the display and for tests.
public struct ReaderCounters: Sendable, Equatable {
    /// Samples delivered.
    public var samples = 0
    /// Failed driver calls (each failed transfer or re-initialisation).
    public var errors = 0
    /// Attempts made after a failure.
    public var retries = 0
    /// Samples dropped because the field exceeded the chip's range.
    public var droppedOverflow = 0
    /// Samples dropped because a value was not finite.
    public var droppedInvalid = 0
    /// Reads dropped because the chip could not have made them (beyond its range, or a field far
    /// stronger than any a compass works in): bus garbage.
    public var droppedImplausible = 0
    /// Times the chip was re-initialised with `configure()`.
    public var reconfigurations = 0
    /// Failed accelerometer calls.
    public var accelerometerErrors = 0
    /// Accelerometer samples dropped because an axis saturated.
    public var accelerometerDropped = 0
    /// Inertial samples dropped because a gyroscope axis saturated.
    public var gyroscopeDropped = 0

    public init() {}
}
