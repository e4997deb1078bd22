/// Why a deviation card could not be built from stored arrays.
public enum DeviationTableError: Error, Sendable, Hashable, CustomStringConvertible {
    case sectorCount(Int)
    case lengthMismatch(corrections: Int, counts: Int)
    case badCorrection(index: Int)
    case badCount(index: Int)

    public var description: String {
        switch self {
        case let .sectorCount(n):
            "deviation card has \(n) sectors; it needs 4 to 360. Delete the card from the profile to learn it again."
        case let .lengthMismatch(c, n):
            "deviation card has \(c) corrections but \(n) counts; they must match. Delete the card from the profile to learn it again."
        case let .badCorrection(i):
            "deviation card correction \(i) is not a finite angle within ±180°. Delete the card from the profile to learn it again."
        case let .badCount(i):
            "deviation card count \(i) is negative. Delete the card from the profile to learn it again."
        }
    }
}

/// A compass deviation card (deviation table), as ships' compasses have: the correction (degrees, added to the compass
/// heading) at each sector centre of compass heading (sector i centred on i × 360/n), learned from GNSS
/// course while travelling straight, and interpolated linearly in between.
///
/// Learning is a least-squares fit of the piecewise-linear card to every observation (each one
/// weighs on its two neighbouring centres), with a light smoothness penalty between neighbours: a
/// sector that was never driven is filled by interpolating across the gap instead of staying 0, and
/// a sector's estimate is not biased by where in the sector the observations fell. Old data fades
/// once a sector holds `memory` samples' worth. The fit is an O(n) cyclic tridiagonal solve.
///
/// Stored as plain arrays (`corrections`, `counts`) in the calibration profile.
///
/// ```swift
/// var card = DeviationTable(sectorCount: 36)
/// card.learn(compassHeading: 92, deviation: 3.0)
/// let corrected = 92 + card.correction(atCompassHeading: 92)
/// let restored = try DeviationTable(corrections: card.corrections, counts: card.counts)
/// ```
public struct DeviationTable: Sendable, Hashable {
    /// Correction at each sector centre, degrees (true course − compass true heading).
    public private(set) var corrections: [Double]
    /// Observations learned per sector (by nearest centre).
    public private(set) var counts: [Int]
    /// Observations (in total) before the card is applied.
    public var minimumSamples: Int = 10
    /// Samples' worth of weight per sector beyond which old data fades.
    public var memory: Double = 500
    /// Smoothness penalty between neighbouring centres, in samples' worth.
    public var smoothness: Double = 0.5

    // Normal equations of the fit: diagonal, coupling to the next centre, right-hand side.
    private var diagonal: [Double]
    private var coupling: [Double]
    private var rhs: [Double]

    /// An empty card with `sectorCount` sectors (clamped to 4…360; 36 = 10° sectors).
    public init(sectorCount: Int = 36) {
        let n = Swift.min(360, Swift.max(4, sectorCount))
        corrections = Array(repeating: 0, count: n)
        counts = Array(repeating: 0, count: n)
        diagonal = Array(repeating: 0, count: n)
        coupling = Array(repeating: 0, count: n)
        rhs = Array(repeating: 0, count: n)
    }

    /// A card from stored arrays; throws when they are inconsistent. Further learning treats each
    /// sector's count as that many observations at its centre. Without counts (a profile that stores
    /// corrections only), each sector is taken as 5 observations: the card applies, and learning
    /// can still move it.
    public init(corrections: [Double], counts storedCounts: [Int]? = nil) throws(DeviationTableError) {
        let counts = storedCounts ?? Array(repeating: 5, count: corrections.count)
        guard (4...360).contains(corrections.count) else { throw .sectorCount(corrections.count) }
        guard corrections.count == counts.count else {
            throw .lengthMismatch(corrections: corrections.count, counts: counts.count)
        }
        for (i, c) in corrections.enumerated() where !(c.isFinite && abs(c) <= 180) { throw .badCorrection(index: i) }
        for (i, c) in counts.enumerated() where c < 0 { throw .badCount(index: i) }
        self.corrections = corrections
        self.counts = counts
        diagonal = counts.map { Double($0) }
        coupling = Array(repeating: 0, count: counts.count)
        rhs = zip(counts, corrections).map { Double($0) * $1 }
        fadeIfNeeded()
    }

    public static func == (a: DeviationTable, b: DeviationTable) -> Bool {
        a.corrections == b.corrections && a.counts == b.counts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(corrections)
        hasher.combine(counts)
    }

    public var sectorCount: Int { corrections.count }
    /// Sector width, degrees.
    public var sectorWidth: Double { 360 / Double(corrections.count) }
    /// Observations learned in total.
    public var totalCount: Int { counts.reduce(0, &+) }
    /// Sectors with at least 5 observations.
    public var learnedSectors: Int { counts.reduce(0) { $0 + ($1 >= 5 ? 1 : 0) } }
    /// True once the card holds `minimumSamples` observations.
    public var isUsable: Bool { totalCount >= minimumSamples }

    /// The sector whose centre is nearest a compass heading.
    public func sector(ofCompassHeading heading: Double) -> Int {
        Int((normalizeDegrees(heading) / sectorWidth).rounded()) % corrections.count
    }

    /// The correction (degrees) to add to a compass heading, interpolated between sector centres.
    public func correction(atCompassHeading heading: Double) -> Double {
        let n = corrections.count
        let position = normalizeDegrees(heading) / sectorWidth
        let lower = Swift.min(Int(position), n - 1)
        let f = position - Double(lower)
        let value = (1 - f) * corrections[lower] + f * corrections[lower == n - 1 ? 0 : lower + 1]
        return value.isFinite ? value : 0
    }

    /// Adds one observation: at `compassHeading` (degrees, uncorrected magnetic) the true course was
    /// `deviation` degrees clockwise of the compass true heading. Non-finite values are ignored.
    public mutating func learn(compassHeading: Double, deviation: Double) {
        guard compassHeading.isFinite, deviation.isFinite else { return }
        let n = corrections.count
        let d = signedDifference(deviation, 0)
        let position = normalizeDegrees(compassHeading) / sectorWidth
        let i = Swift.min(Int(position), n - 1), j = (i + 1) % n
        let wj = position - Double(i), wi = 1 - wj
        diagonal[i] += wi * wi
        diagonal[j] += wj * wj
        coupling[i] += wi * wj
        rhs[i] += wi * d
        rhs[j] += wj * d
        let nearest = sector(ofCompassHeading: compassHeading)
        if counts[nearest] < Int.max { counts[nearest] += 1 }
        fadeIfNeeded()
        solve()
    }

    /// Forgets everything learned.
    public mutating func clear() {
        self = DeviationTable(sectorCount: corrections.count)
    }

    private mutating func fadeIfNeeded() {
        let largest = diagonal.max() ?? 0
        guard largest > memory, memory > 0 else { return }
        let k = memory / largest
        for i in diagonal.indices { diagonal[i] *= k; coupling[i] *= k; rhs[i] *= k }
    }

    /// Least squares with smoothness λ Σ(cᵢ − cᵢ₊₁)² and a tiny pull towards 0 (so it is never singular).
    private mutating func solve() {
        let lambda = Swift.max(0, smoothness), ridge = 1e-3
        let d = diagonal.map { $0 + 2 * lambda + ridge }
        let e = coupling.map { $0 - lambda }
        guard let x = CyclicTridiagonal.solve(diagonal: d, offDiagonal: e, rhs: rhs) else { return }
        corrections = x.map { Swift.max(-180, Swift.min(180, $0)) }
    }
}
