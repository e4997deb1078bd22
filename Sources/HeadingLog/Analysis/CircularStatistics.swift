import Glibc

/// Mean direction and spread of angles on the circle (headings), accumulated one angle at a time.
///
/// The mean is the direction of the summed unit vectors, so 350° and 10° average to 0°, not 180°.
/// The spread is the circular standard deviation √(−2 ln R̄), R̄ being the mean resultant length:
/// 0 when every angle is equal, growing without bound as the angles spread evenly around the circle.
///
/// ```swift
/// var stats = CircularStatistics()
/// stats.add(350); stats.add(10)
/// stats.mean        // 0
/// ```
public struct CircularStatistics: Sendable, Equatable {
    public private(set) var count = 0
    private var sumSin = 0.0
    private var sumCos = 0.0

    public init() {}

    /// Adds an angle in degrees (any finite value; NaN and infinities are ignored).
    @inline(__always)
    public mutating func add(_ degrees: Double) {
        guard degrees.isFinite else { return }
        let r = degrees * (.pi / 180)
        sumSin += sin(r)
        sumCos += cos(r)
        count += 1
    }

    /// The mean resultant length R̄ in [0, 1]: 1 when all angles agree, near 0 when they cancel.
    public var resultantLength: Double? {
        guard count > 0 else { return nil }
        return min(1, (sumSin * sumSin + sumCos * sumCos).squareRoot() / Double(count))
    }

    /// The mean direction in [0, 360), or nil when there is none (no angles, or they cancel out).
    public var mean: Double? {
        guard let r = resultantLength, r > 1e-12 else { return nil }
        var m = atan2(sumSin, sumCos) * (180 / .pi)
        if m < 0 { m += 360 }
        // Angles that cancel to within rounding (e.g. 350° and 10°) must give 0, not 359.99999999999997.
        if m >= 360 - 1e-9 || m < 1e-9 { m = 0 }
        return m
    }

    /// The circular standard deviation in degrees, or nil when undefined (no angles, or they cancel).
    public var standardDeviation: Double? {
        guard let r = resultantLength, r > 1e-12 else { return nil }
        return (-2 * log(r)).squareRoot() * (180 / .pi)
    }
}
