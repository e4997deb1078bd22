extension Double {
    /// Approximate equality with explicit tolerances: |a − b| ≤ max(absolute, relative · max(|a|, |b|)).
    ///
    /// ```swift
    /// (0.1 + 0.2).isApproximatelyEqual(to: 0.3, absoluteTolerance: 1e-12)
    /// ```
    @inlinable
    public func isApproximatelyEqual(to other: Double, absoluteTolerance: Double = 0,
                                     relativeTolerance: Double = 0) -> Bool {
        if self == other { return true }
        guard isFinite, other.isFinite else { return false }
        let scale = Swift.max(abs(self), abs(other))
        return abs(self - other) <= Swift.max(absoluteTolerance, relativeTolerance * scale)
    }
}

extension Vector3 {
    /// Component-wise approximate equality (see `Double.isApproximatelyEqual`).
    @inlinable
    public func isApproximatelyEqual(to other: Vector3, absoluteTolerance: Double) -> Bool {
        x.isApproximatelyEqual(to: other.x, absoluteTolerance: absoluteTolerance)
            && y.isApproximatelyEqual(to: other.y, absoluteTolerance: absoluteTolerance)
            && z.isApproximatelyEqual(to: other.z, absoluteTolerance: absoluteTolerance)
    }
}

/// The signed smallest difference a − b between two angles in degrees, in (−180, 180].
@inlinable public func angleDifference(_ a: Double, _ b: Double) -> Double {
    wrap180(a - b)
}
