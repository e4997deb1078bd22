import Linear

/// What the scatter left after a fit is made of, read from the residuals |corrected| − field in
/// recording order:
///
/// - **white sensor noise** changes from one sample to the next and averages out: it is measured
///   from successive differences (`whiteNoise`), and is harmless given enough samples;
/// - **systematic** scatter (`systematic`) is the rest: the part that follows the orientation or
///   the time, which more samples do not average away;
/// - a **field change** while recording (a magnet or steel moved, a current switched on) shows as
///   two halves of the recording that each fit a sphere well, about different centres
///   (`change`), or as a slow drift that a split explains much better than one centre.
///
/// Spikes are not here: they are dropped before the fit (`SpikeFilter`).
///
/// ```swift
/// let d = ResidualDiagnosis(sequence: rawInOrder, fit: result.fit)
/// if let change = d.change { print("field changed at sample \(change.index)") }
/// print(d.whiteNoise, d.systematic)
/// ```
public struct ResidualDiagnosis: Sendable, Hashable {
    /// A change of the field while recording: where, and how far the centre moved.
    public struct FieldChange: Sendable, Hashable {
        /// Index in the recording (0-based) where the second part begins.
        public var index: Int
        /// Fraction of the recording before the change (0…1).
        public var fraction: Double
        /// How far the centre (hard iron) moved between the two parts, input unit.
        public var shift: Double
        /// RMS residual of one centre over the RMS residual of two: how much better the split explains the data.
        public var improvement: Double
    }

    /// Samples in the sequence examined.
    public var count: Int
    /// RMS residual over the sequence, input unit.
    public var residualRMS: Double
    /// Per-sample white noise (robust, from successive differences), input unit.
    public var whiteNoise: Double
    /// The RMS residual that is not white noise, input unit.
    public var systematic: Double
    /// A field change that explains the residual much better than one centre does, if any.
    public var change: FieldChange?

    /// A split must cut the RMS residual by at least this factor to count as a field change: a
    /// fit that leaves only noise and smooth sensor error improves by a few per cent at most when
    /// given a second centre, a moved magnet by several times.
    public static let changeImprovement = 1.5

    /// Diagnoses the residuals of `fit` over `sequence` (raw samples in recording order, outliers
    /// already removed). Long sequences are sampled evenly down to about 4,000 points.
    public init(sequence: [Vector3], fit: EllipsoidFit) {
        let stride = max(1, sequence.count / 4000)
        var picked: [Vector3] = []
        var indices: [Int] = []
        var i = 0
        while i < sequence.count {
            picked.append(fit.apply(sequence[i]))
            indices.append(i)
            i += stride
        }
        count = picked.count
        let r = fit.fieldStrength
        let residuals = picked.map { $0.norm - r }
        var sum = 0.0
        for e in residuals { sum += e * e }
        residualRMS = count > 0 ? (sum / Double(count)).squareRoot() : 0
        // Successive differences of the full-rate sequence (not the sampled one): white noise
        // doubles their variance, slow changes hardly show.
        var differences: [Double] = []
        differences.reserveCapacity(min(sequence.count, 20_000))
        let step = max(1, sequence.count / 20_000)
        var j = 0
        while j + 1 < sequence.count {
            differences.append(fit.apply(sequence[j + 1]).norm - fit.apply(sequence[j]).norm)
            j += step
        }
        whiteNoise = 1.4826 * RobustStatistics.median(differences.map(abs)) / 2.0.squareRoot()
        systematic = max(0, residualRMS * residualRMS - whiteNoise * whiteNoise).squareRoot()
        change = Self.bestSplit(picked, indices: indices, total: sequence.count, whiteNoise: whiteNoise)
    }

    /// The split (between 15 % and 85 % of the recording) after which two spheres fit best, when
    /// it improves the RMS residual by `changeImprovement` or more and the residual is well above
    /// the white noise.
    static func bestSplit(_ y: [Vector3], indices: [Int], total: Int, whiteNoise: Double) -> FieldChange? {
        guard y.count >= 40, let whole = SphereSums(y[...]).fit() else { return nil }
        let single = geometricSquares(y[...], whole)
        let rmsAll = (single / Double(y.count)).squareRoot()
        guard rmsAll > 2 * whiteNoise else { return nil }
        var best: (split: Int, squares: Double, shift: Double)?
        for percent in Swift.stride(from: 15, through: 85, by: 5) {
            let split = y.count * percent / 100
            guard let a = SphereSums(y[..<split]).fit(), let b = SphereSums(y[split...]).fit() else { continue }
            let squares = geometricSquares(y[..<split], a) + geometricSquares(y[split...], b)
            if best == nil || squares < best!.squares {
                best = (split, squares, (a.centre - b.centre).norm)
            }
        }
        guard let b = best, b.squares > 0 else { return nil }
        let improvement = rmsAll / (b.squares / Double(y.count)).squareRoot()
        guard improvement >= changeImprovement else { return nil }
        return FieldChange(index: indices[b.split], fraction: Double(indices[b.split]) / Double(max(total, 1)),
                           shift: b.shift, improvement: improvement)
    }

    static func geometricSquares(_ y: ArraySlice<Vector3>, _ s: (centre: Vector3, radius: Double)) -> Double {
        var sum = 0.0
        for v in y {
            let e = (v - s.centre).norm - s.radius
            sum += e * e
        }
        return sum
    }

    /// Normal equations of the algebraic sphere |y|² = 2c·y + k.
    struct SphereSums {
        var normal = DenseMatrix(n: 4)
        var rhs = [Double](repeating: 0, count: 4)
        var count = 0

        init(_ y: ArraySlice<Vector3>) {
            var row = [0.0, 0, 0, 1]
            for v in y {
                row[0] = 2 * v.x; row[1] = 2 * v.y; row[2] = 2 * v.z
                let t = v.squaredNorm
                for i in 0..<4 { rhs[i] += row[i] * t }
                normal.addOuterUpper(row)
                count += 1
            }
            normal.symmetrize()
        }

        func fit() -> (centre: Vector3, radius: Double)? {
            guard count >= 10, let s = normal.solve(rhs) else { return nil }
            let c = Vector3(s[0], s[1], s[2])
            let r2 = s[3] + c.squaredNorm
            guard r2 > 0, r2.isFinite else { return nil }
            return (c, r2.squareRoot())
        }
    }
}

/// Drops samples that cannot be readings of the field before any fit: non-finite values, values
/// beyond the chip's full scale, and spikes far from the cloud of the others.
///
/// The cloud's centre is the middle of each axis's 2–98 % range and its size the median distance
/// from it, so a few spikes, however large, move neither. A sample is a spike when its distance
/// from the centre differs from that median by more than 6 robust standard deviations (1.4826 ·
/// MAD) and by more than twice the median: a sensor whose soft iron stretches one axis 3 : 1 keeps
/// every genuine reading.
///
/// ```swift
/// let keep = SpikeFilter.mask(samples, fullScale: 800)
/// let clean = zip(samples, keep).compactMap { $1 ? $0 : nil }
/// ```
public enum SpikeFilter {
    /// True for each sample to keep.
    public static func mask(_ samples: [Vector3], fullScale: Double? = nil) -> [Bool] {
        var keep = samples.map { v -> Bool in
            guard v.isFinite else { return false }
            if let range = fullScale, range > 0, range.isFinite {
                return abs(v.x) < range && abs(v.y) < range && abs(v.z) < range
            }
            return true
        }
        let finite = zip(samples, keep).compactMap { $1 ? $0 : nil }
        guard finite.count >= 8 else { return keep }
        var centre = Vector3.zero
        for axis in 0..<3 {
            let values = finite.map { $0[axis] }
            centre[axis] = 0.5 * (RobustStatistics.quantile(values, 0.02) + RobustStatistics.quantile(values, 0.98))
        }
        let distances = finite.map { ($0 - centre).norm }
        let median = RobustStatistics.median(distances)
        let mad = RobustStatistics.median(distances.map { abs($0 - median) })
        let limit = max(6 * 1.4826 * mad, 2 * median)
        for (i, v) in samples.enumerated() where keep[i] {
            let d = (v - centre).norm
            keep[i] = d.isFinite && abs(d - median) <= limit
        }
        return keep
    }
}
