import Linear

/// A change of the magnetic environment that rides with the board (body axes): a hard-iron step
/// (a radio fitted, a toolbox stowed near the compass: from `start` on, for good) or a transient (a
/// magnet held near for a while: from `start` to `end`). It comes and goes over `rampSeconds`, as a
/// thing carried past does.
///
/// ```swift
/// var setup = SimulationSetup(scenario: .boat())
/// setup.fieldChanges = [FieldChange(field: Vector3(6, -5, 3), start: 60)]
/// ```
public struct FieldChange: Sendable, Equatable {
    /// µT, body axes.
    public var field: Vector3
    /// Scenario seconds.
    public var start: Double
    /// nil: it stays.
    public var end: Double?
    public var rampSeconds: Double

    public init(field: Vector3, start: Double, end: Double? = nil, rampSeconds: Double = 1) {
        self.field = field
        self.start = start
        self.end = end
        self.rampSeconds = rampSeconds
    }

    /// A step of (x, y, z) µT in body axes from `start` on.
    public init(x: Double, y: Double, z: Double, start: Double) {
        self.init(field: Vector3(x, y, z), start: start)
    }

    /// The field it adds at scenario time `t` (µT, body axes).
    @inlinable public func field(at t: Double) -> Vector3 {
        let ramp = max(1e-6, rampSeconds)
        var level = min(1, max(0, (t - start) / ramp))
        if let end { level = min(level, min(1, max(0, (end - t) / ramp))) }
        return level == 0 ? .zero : field * level
    }
}

extension Array where Element == FieldChange {
    /// The sum of the changes at scenario time `t`.
    @inlinable public func field(at t: Double) -> Vector3 {
        var sum = Vector3.zero
        for change in self { sum += change.field(at: t) }
        return sum
    }
}
