import Linear

/// Output-data-rate timing shared by the chip emulators: decides when a new sample is due.
public struct ChipClock: Sendable {
    /// Seconds between samples.
    public var period: Double
    private var lastSample = -Double.infinity

    public init(rate: Double) { period = 1 / rate }

    /// True (and advances) when a new sample is due at `now`.
    public mutating func sampleDue(at now: Double) -> Bool {
        guard now - lastSample >= period else { return false }
        // Stay on the chip's own grid, as a free-running oscillator does; resync after long gaps.
        lastSample = now - lastSample < 2 * period ? lastSample + period : now
        return true
    }

    /// Forgets the last sample (after a reset or mode change).
    public mutating func reset() { lastSample = -Double.infinity }
}

/// Where an emulated chip gets its physics: the field (µT, chip axes, noise-free), acceleration
/// (g, chip axes) and rotation rate (°/s, chip axes, any gyro bias included) at a time, and the clock.
///
/// ```swift
/// let physics = PhysicsSource(now: clock.now, magneticField: { _ in field },
///                             rotationRate: { _ in Vector3(0, 0, 30) })   // turning at 30 °/s
/// ```
public struct PhysicsSource: Sendable {
    public var now: @Sendable () -> Double
    public var magneticField: @Sendable (Double) -> Linear.Vector3
    public var acceleration: @Sendable (Double) -> Linear.Vector3
    public var rotationRate: @Sendable (Double) -> Linear.Vector3

    public init(now: @escaping @Sendable () -> Double,
                magneticField: @escaping @Sendable (Double) -> Linear.Vector3,
                acceleration: @escaping @Sendable (Double) -> Linear.Vector3 = { _ in Linear.Vector3(0, 0, 1) },
                rotationRate: @escaping @Sendable (Double) -> Linear.Vector3 = { _ in .zero }) {
        self.now = now
        self.magneticField = magneticField
        self.acceleration = acceleration
        self.rotationRate = rotationRate
    }
}
