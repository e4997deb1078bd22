import Linear

/// Reads any `Magnetometer` (and optionally an `Accelerometer`) through everything a hobby I²C bus
/// throws at it. It never crashes, never returns NaN and never invents a sample: every sample it
/// returns is a reading the chip produced, rotated into body axes by the mounting orientation.
///
/// - NAK bursts and bus timeouts are retried with exponential backoff (`status` = `.retrying`).
/// - A device that vanishes is polled at least every `maxRetryDelay` seconds (`.notResponding`);
///   when it answers again it is re-initialised with `configure()` and reading resumes.
/// - No data for a few sample periods gives `.noData`, and the chip is re-initialised now and then.
/// - Overflowed samples are dropped and counted; identical readings for seconds give `.stuck`.
/// - Polls are paced at the chip's own sample period: one poll when the next sample is expected (a
///   sample period after the poll that found the last one), so a steady chip costs one wake-up per
///   sample, not two. A poll that finds nothing is tried again an eighth of a period later (and the
///   grid moves to the poll that finds the sample); every eighth sample is looked for an eighth of
///   a period early. The period followed is learned from both (a chip's oscillator is a few per
///   cent off its nominal rate). While the early looks find nothing and the period stays as it is,
///   they come less often (every 16th, then every 32nd sample); a change of the period brings them
///   back to every eighth. A period without data slows the retries to half a period. Why: each
///   wake-up costs more than the read itself, and polling at half the period woke a 200 Hz chip's
///   reader 400 times a second; an early look that finds nothing is a wake-up of its own (an
///   eighth more of them at every eighth sample, for a chip on its nominal rate).
/// - Right after each magnetometer sample it polls the accelerometer (`readMotionIfReady`: on chips
///   with a gyroscope, acceleration and rotation rate from one chip sample) and pairs the newest
///   reading, rotated into body axes, with the sample: `acceleration` while younger than
///   `accelerometerMaxAge`, `rotationRate` while younger than `rotationRateMaxAge`.
///
/// ```swift
/// let reader = MagnetometerReader(magnetometer: chip, orientation: .componentSideUp)
/// while running {
///     if let sample = reader.next(timeout: 0.1) { show(sample) }
///     else if let text = reader.statusMessage { showProblem(text) }
/// }
/// ```
public final class MagnetometerReader {
    public let magnetometer: any Magnetometer
    public let accelerometer: (any Accelerometer)?
    public let orientation: MountingOrientation
    public let policy: ReaderPolicy
    private let clock: ReaderClock

    // The two properties a sample changes that the compiler cannot prove unshared: not checked for
    // exclusivity at run time (two checks a sample, each through the runtime's access set). Each
    // access is a plain read, assignment or increment that calls nothing, and the reader is not
    // Sendable, so no access can overlap another.
    @exclusivity(unchecked) public private(set) var status: ReaderStatus = .ok
    @exclusivity(unchecked) public private(set) var counters = ReaderCounters()

    /// When the reader was made (monotonic seconds): its first poll.
    public let start: Double
    /// The chip's sample period, seconds (from its output rate, within 1 ms … 100 ms): the
    /// interval between polls while samples come as expected.
    public let samplePeriod: Double
    /// The chip's full scale (µT per axis, from its info when the reader was made): what a reading
    /// must stay within to be plausible.
    private let fullScale: Double
    /// After a poll that found nothing, the next comes this much later (an eighth of a period).
    public var retryInterval: Double { samplePeriod / 8 }
    /// Every this many samples, the next is looked for `retryInterval` early (a fast chip), while
    /// the period followed is new.
    public static let earlyLookEvery = 8
    /// The fewest early looks: every this many samples, once they have found nothing for a while
    /// on an unchanged period. With the period within a 64th of the chip's, a sample is read at
    /// most half a period late before an early look finds it (32 × 1/64).
    public static let slowestEarlyLookEvery = 32
    private var nextAttempt: Double
    /// Polls in a row that found no sample (not counting errors).
    private var emptyPolls = 0
    /// Samples since the last early look.
    private var sinceEarlyLook = 0
    /// Samples between early looks now: `earlyLookEvery`, doubled after each that found nothing
    /// (up to `slowestEarlyLookEvery`), back to `earlyLookEvery` when the period changes.
    private var earlyLookInterval = MagnetometerReader.earlyLookEvery
    /// The period the polls follow: the nominal one, adjusted to the chip's real rate.
    private var gridPeriod: Double
    private var nextKind = PollKind.expected
    private var consecutiveFailures = 0
    private var failingSince: Double?
    private var needsConfigure = false
    private var lastDataTime: Double
    private var lastConfigureTime: Double
    private var lastRaw: Vector3?
    private var sameSince = 0.0
    private var sameCount = 0
    private var latestAcceleration: (value: Vector3, time: Double)?
    private var latestRotationRate: (value: Vector3, time: Double)?
    private var accelerometerFailures = 0
    private var accelerometerNextAttempt = -Double.infinity
    private var accelerometerNeedsConfigure = false

    public init(magnetometer: any Magnetometer, orientation: MountingOrientation = .componentSideUp,
                accelerometer: (any Accelerometer)? = nil, policy: ReaderPolicy = ReaderPolicy(),
                clock: ReaderClock = .system) {
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
        self.orientation = orientation
        self.policy = policy
        self.clock = clock
        let rate = magnetometer.info.outputRate
        let period = rate.isFinite && rate > 0 ? 1 / rate : 0.1
        samplePeriod = min(max(period, 0.001), 0.1)
        gridPeriod = samplePeriod
        fullScale = magnetometer.info.fullScale
        start = clock.monotonic()
        nextAttempt = start
        lastDataTime = start
        lastConfigureTime = start
    }

    /// Waits up to `timeout` seconds for the next sample. Nil when none came in time; `status` says why.
    public func next(timeout: Double) -> MagnetometerSample? {
        var now = clock.monotonic()
        let deadline = now + max(0, timeout.isFinite ? timeout : 0)
        while true {
            if now >= nextAttempt {
                if let sample = attempt(at: now) { return sample }
                now = clock.monotonic()   // the attempt itself took time
            }
            if now >= deadline { return nil }
            let wake = min(nextAttempt, deadline)
            if wake > now { clock.sleep(wake - now) }
            let later = clock.monotonic()
            if later <= now && wake > now { return nil }   // a clock that does not move: give up, never spin
            now = later
        }
    }

    /// One poll if one is due, without sleeping: the sample, or nil.
    public func poll() -> MagnetometerSample? {
        let now = clock.monotonic()
        return now >= nextAttempt ? attempt(at: now) : nil
    }

    /// The reader's monotonic clock, read now.
    public func clockNow() -> Double { clock.monotonic() }

    // MARK: - One attempt

    private func attempt(at now: Double) -> MagnetometerSample? {
        // The time this poll was due: the grid goes on from it (drift-free), unless the poll came
        // so late (a busy caller) that the grid means nothing any more.
        let due = now - nextAttempt < samplePeriod / 2 ? nextAttempt : now
        if consecutiveFailures > 0 { counters.retries += 1 }
        if needsConfigure {
            do {
                try magnetometer.configure()
            } catch {
                fail(error, at: now)
                return nil
            }
            // Not yet a recovery: only a read that works ends the failure streak.
            counters.reconfigurations += 1
            needsConfigure = false
            lastConfigureTime = now
        }
        let raw: Vector3?
        do {
            raw = try magnetometer.readIfReady()
        } catch .overflow {
            madeContact()
            counters.droppedOverflow += 1
            lastDataTime = now
            scheduleAfterSample(due: due)
            return nil
        } catch {
            fail(error, at: now)
            return nil
        }
        madeContact()
        guard let raw else {
            checkForMissingData(at: now)
            scheduleAfterEmptyPoll(due: due)
            return nil
        }
        let readTime = clock.monotonic()
        lastDataTime = readTime
        scheduleAfterSample(due: due)
        let field = orientation.toBody(raw)
        guard raw.isFinite, field.isFinite else {
            counters.droppedInvalid += 1
            return nil
        }
        guard Self.isPlausible(raw, fullScale: fullScale) else {
            // Bus garbage (bit flips, a saturated or rail-stuck word) that passed the chip's own checks.
            counters.droppedImplausible += 1
            return nil
        }
        checkForStuckReadings(raw, at: readTime)
        pollAccelerometer(at: readTime)
        counters.samples += 1
        var acceleration: Vector3?
        if let latest = latestAcceleration, readTime - latest.time <= policy.accelerometerMaxAge {
            acceleration = latest.value
        }
        var rotationRate: Vector3?
        if let latest = latestRotationRate, readTime - latest.time <= policy.rotationRateMaxAge {
            rotationRate = latest.value
        }
        return MagnetometerSample(monotonic: readTime, wall: clock.wall(), field: field, acceleration: acceleration,
                                  rotationRate: rotationRate)
    }

    /// The strongest field accepted as a reading, µT: far beyond the Earth's (at most 66 µT) plus any
    /// steel a compass can work beside; a stronger one is bus garbage or a magnet on the sensor.
    public static let maximumPlausibleField = 2000.0
    /// The weakest field accepted as a reading, µT: a twentieth of the weakest Earth field (22 µT).
    /// A bus held at 0x00 or 0xFF decodes to about nothing (0 or −1 count per axis); a real raw field
    /// this weak would need steel that cancels the Earth's to within 1 µT.
    public static let minimumPlausibleField = 1.0
    /// How far past its full scale (per axis) a chip's reading may go before it is garbage: some chips
    /// read a little beyond their nominal range.
    public static let fullScaleAllowance = 1.05

    /// True when a chip-axes reading (µT) is one the chip could make on Earth: every axis within its
    /// range (with `fullScaleAllowance`) and the magnitude within `minimumPlausibleField` to
    /// `maximumPlausibleField`.
    public static func isPlausible(_ raw: Vector3, fullScale: Double) -> Bool {
        let limit = fullScale > 0 ? fullScale * fullScaleAllowance : .infinity
        let magnitude = raw.norm
        return abs(raw.x) <= limit && abs(raw.y) <= limit && abs(raw.z) <= limit
            && magnitude >= minimumPlausibleField && magnitude <= maximumPlausibleField
    }

    /// What the next poll is: at the expected time, an early look, or a retry after an empty poll.
    private enum PollKind { case expected, early, retry }

    /// A poll due at `due` found a sample: the next is expected one (learned) period later,
    /// drift-free however long the read took. Every `earlyLookInterval` samples it is looked for
    /// `retryInterval` early; an early look that finds it means the chip runs faster than the grid
    /// (the period shortens by a 64th, and the next is looked for early too), an expected poll
    /// that finds nothing means it runs slower (the period lengthens by a 64th), within 10 % of
    /// the nominal period; an early look that finds nothing makes the next come later.
    private func scheduleAfterSample(due: Double) {
        if nextKind == .early {
            gridPeriod = max(gridPeriod - samplePeriod / 64, 0.9 * samplePeriod)
            earlyLookInterval = Self.earlyLookEvery
            sinceEarlyLook = earlyLookInterval - 1
        }
        emptyPolls = 0
        sinceEarlyLook += 1
        if sinceEarlyLook >= earlyLookInterval {
            sinceEarlyLook = 0
            nextKind = .early
            nextAttempt = due + gridPeriod - retryInterval
        } else {
            nextKind = .expected
            nextAttempt = due + gridPeriod
        }
    }

    /// A poll due at `due` found nothing: the sample is a little late (or the look was early), so
    /// the next poll is `retryInterval` later, and the grid moves to the poll that finds it. After
    /// a whole period of empty polls (no data) the retries slow to half a period.
    private func scheduleAfterEmptyPoll(due: Double) {
        switch nextKind {
        case .expected:
            gridPeriod = min(gridPeriod + samplePeriod / 64, 1.1 * samplePeriod)
            earlyLookInterval = Self.earlyLookEvery
        case .early:
            // The chip is not ahead of the grid: look early less often.
            earlyLookInterval = min(2 * earlyLookInterval, Self.slowestEarlyLookEvery)
        case .retry:
            break
        }
        nextKind = .retry
        emptyPolls += 1
        nextAttempt = due + (Double(emptyPolls) * retryInterval > samplePeriod ? samplePeriod / 2 : retryInterval)
    }

    private func madeContact() {
        guard consecutiveFailures > 0 else { return }
        consecutiveFailures = 0
        failingSince = nil
        switch status {
        case .retrying, .notResponding: status = .ok
        default: break
        }
    }

    private func fail(_ error: SensorError, at now: Double) {
        counters.errors += 1
        consecutiveFailures += 1
        nextKind = .retry   // what the next poll finds says nothing about the chip's rate
        let since = failingSince ?? now
        failingSince = since
        let exponent = Double(min(consecutiveFailures - 1, 30))
        nextAttempt = now + min(policy.retryDelay * pow2(exponent), policy.maxRetryDelay)
        if now - since >= policy.notRespondingAfter {
            status = .notResponding(since: since)
            needsConfigure = true
        } else if case .notResponding = status {
            // Stay not responding until the device answers.
        } else {
            status = .retrying(attempt: consecutiveFailures, error: error)
        }
    }

    private func checkForMissingData(at now: Double) {
        let timeout = max(policy.noDataPeriods * samplePeriod, policy.minimumNoDataTimeout)
        guard now - max(lastDataTime, lastConfigureTime) > timeout else { return }
        if case .noData = status {} else { status = .noData(since: lastDataTime) }
        if now - lastConfigureTime >= policy.reconfigureInterval { needsConfigure = true }
    }

    private func checkForStuckReadings(_ raw: Vector3, at now: Double) {
        if raw == lastRaw {
            sameCount += 1
        } else {
            lastRaw = raw
            sameSince = now
            sameCount = 1
        }
        if sameCount >= policy.stuckMinimumSamples && now - sameSince >= policy.stuckAfter {
            if case .stuck = status { return }
            status = .stuck(since: sameSince)
            needsConfigure = true   // one re-initialisation, in case the chip is wedged
        } else if case .ok = status {
            // Already ok: nothing to write (a write destroys the old status's payload).
        } else {
            status = .ok
        }
    }

    private func pollAccelerometer(at now: Double) {
        guard let accelerometer, now >= accelerometerNextAttempt else { return }
        do {
            if accelerometerNeedsConfigure {
                try accelerometer.configure()
                accelerometerNeedsConfigure = false
                counters.reconfigurations += 1
            }
            if let motion = try accelerometer.readMotionIfReady() {
                // Angular rate is a vector under the mounting's proper rotations: the same mapping.
                let body = orientation.toBody(motion.acceleration)
                let rate = motion.rotationRate.map(orientation.toBody)
                if body.isFinite && rate?.isFinite != false {
                    latestAcceleration = (body, now)
                    if let rate { latestRotationRate = (rate, now) }
                } else {
                    counters.droppedInvalid += 1
                }
            }
            accelerometerFailures = 0
        } catch .accelerometerSaturated {
            counters.accelerometerDropped += 1
            accelerometerFailures = 0
        } catch .gyroscopeSaturated {
            counters.gyroscopeDropped += 1
            accelerometerFailures = 0
        } catch {
            counters.accelerometerErrors += 1
            accelerometerFailures += 1
            let exponent = Double(min(accelerometerFailures - 1, 30))
            accelerometerNextAttempt = now + min(policy.retryDelay * pow2(exponent), policy.maxRetryDelay)
            if accelerometerFailures >= 3 { accelerometerNeedsConfigure = true }
        }
    }
}

/// 2^e for small non-negative e, without libm.
private func pow2(_ e: Double) -> Double {
    var r = 1.0
    var i = 0.0
    while i < e { r *= 2; i += 1 }
    return r
}
