#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// How the background refinement weighs its evidence. The defaults are set by the physics of a car or
/// a boat: a change of the magnetic environment persists for hours, a passing car or a magnet held
/// near lasts seconds; an offset is only seen from several headings.
public struct HardIronRefinerSettings: Sendable, Equatable {
    /// Samples are averaged into blocks this long (s); each block is one point of the fit.
    public var blockSeconds = 0.5
    /// The gyro constraint compares blocks this far apart (s): the field must have rotated as the
    /// gyro says between them.
    public var pairSeconds = 2.0
    /// The fit uses the blocks of the last this many seconds.
    public var windowSeconds = 300.0
    /// A change is looked for in the blocks of the last this many seconds.
    public var recentSeconds = 90.0
    /// The fit is solved again every this many seconds.
    public var solveEverySeconds = 5.0
    /// A disturbance the attitude filter flags that ends within this many seconds was transient (a
    /// passing car, a magnet held near): its blocks, and `transientMarginSeconds` either side of it,
    /// are never learned from.
    public var transientSeconds = 45.0
    public var transientMarginSeconds = 3.0
    /// A changed offset is adopted only after the recent data have shown it, and the newest data
    /// kept agreeing with it, for this long (s).
    public var persistenceSeconds = 60.0
    /// The newest data that must keep agreeing with a suspected change (s).
    public var confirmationSeconds = 20.0
    /// The headings the data must span (degrees) before an offset is trusted: a straight leg
    /// constrains the offset only along the field.
    public var minimumHeadingSpanDegrees = 80.0
    /// The largest 1σ uncertainty (µT, worst horizontal direction) of an offset that is used.
    public var maximumUncertainty = 0.3
    /// A recent offset this far from the one in use (µT, and at least 4σ) is a suspected change.
    public var minimumChange = 0.6
    /// The relative uncertainty of the expected field strength (the WMM's, local anomalies and the
    /// profile's scale): the strength is fitted, this is its prior.
    public var fieldStrengthPrior = 0.05
    /// How far the real dip may be from the WMM's (degrees, 1σ: the model's own error, local anomalies,
    /// the attitude filter's mean tilt error). The fit takes the WMM's dip as it is; the stated confidence
    /// (`HardIronRefiner.uncertainty`) adds what this much dip error moves the offset by: on a level drive
    /// or sail the vertical offset is seen only through the dip, and that is what its confidence is.
    public var dipUncertaintyDegrees = 1.0
    /// The quadrantal deviation the profile may have left unmodelled (degrees, 1σ of each of its two
    /// phases): what a hand calibration leaves, or what a deviation card is drawn for. It is the soft
    /// iron's part across the horizontal (more field along one horizontal axis than the other), a
    /// heading error of ±θ·sin 2(h − h₀). The offset fit does not model it, and a window covering part
    /// of the circle aliases it into the offset: over half a circle, 1.7° moves the offset by more than
    /// 1 µT, while over a whole circle the two harmonics are orthogonal. A change is judged with what this
    /// much deviation moves the recent fit and the fit in use apart, for the headings each covers, so the
    /// alias of a half circle is not taken for a change. (The soft iron's cross terms with the vertical are
    /// not counted: on a level course they are a constant horizontal field, the offset itself.)
    public var unmodelledDeviationDegrees = 1.0
    /// The residual gyro bias allowed for (°/s, 1σ prior): it is fitted with the offset.
    public var gyroBiasPrior = 0.2
    /// The most blocks kept (memory is bounded whatever the run's length).
    public var maximumBlocks = 1200
    /// Refine the soft iron too when the data constrain it (see `HardIronRefiner`): the largest 1σ of
    /// its terms, as a field error (µT: the term times the field's strength), that is used. The same
    /// bound as the offset's (`maximumUncertainty`), so the refined soft iron is known as well as the
    /// refined offset is. nil: the soft iron is never refined.
    public var maximumSoftIronUncertainty: Double? = 0.3
    /// The soft iron is fitted again every this many seconds (a tenth of the window: it changes only
    /// with what is built into the vehicle, and each fit weighs the whole window).
    public var softIronEverySeconds = 30.0
    /// Blocks over which the body turned more than this (degrees) are left out of the soft-iron fit:
    /// averaging a field that turns by θ shortens it by about θ²/24 of its part across the turn (at 10°,
    /// 0.13 %, below the shape the fit must resolve), which would otherwise read as soft iron.
    public var softIronMaximumBlockTurnDegrees = 10.0
    /// The field's directions (body axes) must spread this much along their least-spread axis (the
    /// smallest eigenvalue of their covariance; an even sphere has 1/3, a level turn about 0) before
    /// the soft iron is fitted: 0.05 is a spread of about ±13° (1σ) out of the plane the directions
    /// crowd. Below it the shape terms are told from the offset only by the motion's correlations
    /// (heel with heading, roll with the rate of turn) that any small model error shares.
    public var softIronMinimumDirectionSpread = 0.05

    public init() {}
}

/// What the refinement is doing, for the dashboard, JSON and logs.
public enum RefinementState: String, Sendable, Equatable {
    /// No expected field yet (no GNSS fix and no `--location`): nothing is learned.
    case waitingForReference = "waiting"
    /// Collecting: the data do not yet pin the offset down (too few headings, a straight leg).
    case collecting
    /// The offset is known from the data; the one in use agrees with them.
    case converged
    /// The recent data show a different offset; it is being confirmed before it is adopted.
    case changeSuspected = "change_suspected"
}

/// One point of the fit: the mean calibrated field over a block, the down direction, and the
/// gyro-integrated orientation at its middle.
struct RefinerBlock: Sendable {
    var time: Double
    var field: Vector3
    var down: Vector3
    /// Body → gyro frame at the block's middle (the gyro frame drifts, only differences are used).
    var orientation: Matrix3?
    var heading: Double
    var flagged: Bool
    /// How far the body turned during the block (degrees, from the gyro; 0 without one).
    var turn = 0.0
}

/// The background refinement of a calibration's hard-iron offset from ordinary motion.
///
/// Feed it every calibrated sample (µT, body axes, as the heading filter sees it), the gyro's rate
/// with the attitude filter's bias removed, the down direction, whether the attitude filter
/// flagged the field as disturbed, and the expected field (the WMM's strength and dip at the fix or
/// `--location`). It fits, over a sliding window of half-second blocks, the offset `b` that remains
/// in the calibrated field, from three kinds of evidence, each weighted by its own scatter:
/// - the field's strength: |m − b| = F (F fitted, the WMM's as its prior);
/// - its dip: (m − b)·down = F sin(dip);
/// - the gyro: between blocks 2 s apart the field must have turned as the body did,
///   m₂ − b = R (m₁ − b) with R from the integrated gyro (a residual gyro bias fitted with it).
///
/// Blocks in an attitude-flagged disturbance that ends within `transientSeconds` are dropped;
/// other outliers are down-weighted (Cauchy-like, past 3σ). The fitted offset is used only once its
/// uncertainty is small and the data span enough headings; a different offset is adopted only when
/// the recent data have shown it, and the newest kept agreeing with it, for `persistenceSeconds`.
///
/// ```swift
/// var refiner = HardIronRefiner()
/// refiner.setReference(fieldStrength: 57.4, inclinationDegrees: -64.3)
/// refiner.add(time: t, field: calibrated, rotationRate: gyro - bias, down: down, disturbed: flagged, heading: h)
/// let corrected = calibrated - refiner.offset
/// ```
public struct HardIronRefiner: Sendable {
    public let settings: HardIronRefinerSettings
    /// The offset in use (µT, body axes): subtract it from the calibrated field.
    public private(set) var offset = Vector3.zero
    /// Its 1σ uncertainty (µT, per axis) once converged, nil before: the data's scatter (counted as many
    /// times as it is independent) and the reference dip's own uncertainty (`dipUncertaintyDegrees`).
    public private(set) var uncertainty: Vector3?
    public private(set) var state: RefinementState = .waitingForReference
    /// The offset the recent data suggest while a change is suspected.
    public private(set) var suspected: Vector3?
    /// How many times a changed offset was adopted.
    public private(set) var adoptions = 0
    /// True once the offset has been known from the data (at least once).
    public var hasConverged: Bool { uncertainty != nil }
    /// The soft-iron correction in use (body axes, applied after the offset: `S·(m − b)`), nil while the
    /// data have never constrained it (identity).
    public private(set) var softIron: Matrix3?
    /// The refined soft iron's largest 1σ as a field error (µT), nil while it is not refined.
    public private(set) var softIronUncertainty: Double?
    /// How many times a refined soft iron was adopted.
    public private(set) var softIronAdoptions = 0

    /// The calibrated field corrected by the refinement: `S·(field − offset)`.
    public func correct(_ field: Vector3) -> Vector3 {
        let v = field - offset
        return softIron.map { $0 * v } ?? v
    }

    private var reference: (strength: Double, sinDip: Double)?
    private var blocks: [RefinerBlock] = []
    /// Blocks inside a flagged disturbance, held until it is known whether it was transient.
    private var pending: [RefinerBlock] = []
    private var flaggedSince: Double?
    private var lastFlagged: Double?
    private var dropUntil = -Double.infinity
    // The block being collected.
    private var sum = Vector3.zero, downSum = Vector3.zero, count = 0, blockStart: Double?
    private var middle: Matrix3?, blockFlagged = false, blockHeading = 0.0, blockTurn = 0.0
    // The gyro frame.
    private var gyroFrame: Matrix3 = .identity
    private var gyroValid = false
    private var lastTime: Double?
    private var lastSolve = -Double.infinity
    private var suspectedSince: Double?
    /// The quadrantal aliases of the fit that set the offset in use (`Fit.aliases`; none for the profile's
    /// own offset, calibrated over every heading).
    private var offsetAliases: [Vector3] = []
    private var lastSoftIronFit = -Double.infinity
    /// When the change last adopted was first suspected (the change came before it): the soft iron is
    /// fitted only over the blocks after it, one magnetic environment.
    private var lastChange = -Double.infinity
    /// The field strength the last fit found (µT).
    public private(set) var fittedStrength: Double?

    public init(settings: HardIronRefinerSettings = HardIronRefinerSettings()) {
        self.settings = settings
    }

    /// The expected field: its strength (µT) and dip (degrees, positive down). Until it is set, nothing
    /// is learned; a new one (a fix far away) replaces it.
    public mutating func setReference(fieldStrength: Double, inclinationDegrees: Double) {
        guard fieldStrength.isFinite, fieldStrength > 1, inclinationDegrees.isFinite, abs(inclinationDegrees) <= 90
        else { return }
        reference = (fieldStrength, sin(inclinationDegrees * .pi / 180))
        if state == .waitingForReference { state = .collecting }
    }

    public var hasReference: Bool { reference != nil }

    /// Blocks in the window and held while a disturbance lasts (bounded by `maximumBlocks` each).
    var blockCount: Int { blocks.count + pending.count }

    /// One calibrated sample: `field` µT body axes (before this refinement's offset), `rotationRate`
    /// °/s body axes with the gyro bias removed (nil without a gyro), `down` the direction of gravity
    /// in body axes (nil: level), `disturbed` the attitude filter's flag, `heading` the magnetic
    /// heading in degrees.
    public mutating func add(time: Double, field: Vector3, rotationRate: Vector3?, down: Vector3?, disturbed: Bool,
                             heading: Double) {
        guard time.isFinite, field.isFinite, field.norm > 1, heading.isFinite else { return }
        let dt = lastTime.map { time - $0 } ?? 0
        if dt < 0 || dt > 1 { resetCollection() }
        lastTime = time
        if let rate = rotationRate, rate.isFinite {
            if gyroValid, dt > 0, dt <= 1 {
                gyroFrame = gyroFrame * Self.rotation(rate * (.pi / 180 * dt))
                if blockStart != nil { blockTurn += rate.norm * dt }
            }
            gyroValid = true
        } else {
            gyroValid = false
        }
        guard reference != nil else { return }
        let d = down.flatMap { $0.isFinite ? $0.normalized : nil } ?? Vector3(0, 0, 1)
        if blockStart == nil { blockStart = time }
        sum += field; downSum += d; count += 1
        blockHeading = heading
        if disturbed { blockFlagged = true }
        if middle == nil, let start = blockStart, time - start >= settings.blockSeconds / 2 {
            middle = gyroValid ? gyroFrame : nil
        }
        if let start = blockStart, time - start >= settings.blockSeconds - 1e-9 {
            closeBlock(time: start + settings.blockSeconds / 2)
        }
        if time - lastSolve >= settings.solveEverySeconds {
            lastSolve = time
            solve(now: time)
        }
    }

    private mutating func resetCollection() {
        sum = .zero; downSum = .zero; count = 0; blockStart = nil; middle = nil; blockFlagged = false; blockTurn = 0
        gyroValid = false
    }

    private mutating func closeBlock(time: Double) {
        defer { sum = .zero; downSum = .zero; count = 0; blockStart = nil; middle = nil; blockFlagged = false; blockTurn = 0 }
        guard count > 0, let down = (downSum / Double(count)).normalized else { return }
        let block = RefinerBlock(time: time, field: sum / Double(count), down: down, orientation: middle,
                                 heading: blockHeading, flagged: blockFlagged, turn: blockTurn)
        let margin = settings.transientMarginSeconds
        if block.flagged {
            if flaggedSince == nil {
                flaggedSince = time
                // The edges of a disturbance are part of it: take back the last few seconds.
                while let last = blocks.last, last.time > time - margin { pending.insert(blocks.removeLast(), at: 0) }
            }
            lastFlagged = time
            pending.append(block)
            if let since = flaggedSince, time - since > settings.transientSeconds {
                // It lasted: a new environment, not a passing one. Its blocks count.
                blocks.append(contentsOf: pending); pending.removeAll()
            }
        } else if let since = flaggedSince, let last = lastFlagged {
            if time - last <= margin {
                pending.append(block)
            } else {
                if last - since <= settings.transientSeconds {
                    dropUntil = time
                } else {
                    blocks.append(contentsOf: pending)
                }
                pending.removeAll()
                flaggedSince = nil; lastFlagged = nil
                blocks.append(block)
            }
        } else {
            blocks.append(block)
        }
        let oldest = time - settings.windowSeconds
        if let first = blocks.firstIndex(where: { $0.time >= oldest }), first > 0 { blocks.removeFirst(first) }
        if blocks.count > settings.maximumBlocks { blocks.removeFirst(blocks.count - settings.maximumBlocks) }
        if pending.count > settings.maximumBlocks { pending.removeFirst(pending.count - settings.maximumBlocks) }
    }

    /// The fit over the window, and the decision what to use.
    private mutating func solve(now: Double) {
        guard let reference, blocks.count >= 20 else { return }
        let recentStart = now - settings.recentSeconds
        let recent = blocks.filter { $0.time >= recentStart }
        let s0 = softIron ?? .identity
        guard let long = fit(blocks, reference: reference, start: offset, softIron: s0) else { return }
        let longGood = isUsable(long, blocks: blocks)
        var recentFit: Fit?
        if recent.count >= 20 {
            // From the offset in use and from the change suspected: the better explains the recent data.
            let starts = [offset, suspected].compactMap { $0 }
            recentFit = starts.compactMap { fit(recent, reference: reference, start: $0, softIron: s0) }.min { $0.cost < $1.cost }
        }
        if let r = recentFit, isUsable(r, blocks: recent) {
            // A change stands out when it is 4σ away along the axes taken together, each by its own
            // σ, the blocks counted as often as they are independent and the dip's error carried
            // through: the recent window's tilt errors are not the long one's (a level drive pins the
            // vertical only through the dip, so a car's lean after a launch moves it). An unmodelled
            // quadrantal deviation moves the two fits apart by the difference of their aliases (a recent
            // half circle against a long whole one), which adds to that σ.
            let change = r.offset - offset
            let s = Self.changeSigma(r, inUseAliases: offsetAliases)
            let standardised = Vector3(change.x / max(s.x, 1e-9), change.y / max(s.y, 1e-9), change.z / max(s.z, 1e-9)).norm
            if change.norm > settings.minimumChange, standardised > 4,
               newestAgree(with: r, now: now, reference: reference) {
                if suspected == nil || suspectedSince == nil { suspectedSince = now }
                suspected = r.offset
                state = .changeSuspected
                if let since = suspectedSince, now - since >= settings.persistenceSeconds {
                    // Adopted: what came before the change no longer describes the sensor.
                    offset = r.offset
                    offsetAliases = r.aliases
                    uncertainty = r.absoluteSigma
                    fittedStrength = r.strength
                    adoptions += 1
                    lastChange = since
                    let keepFrom = since - settings.recentSeconds
                    blocks.removeAll { $0.time < keepFrom }
                    suspected = nil; suspectedSince = nil
                    state = .converged
                }
                return
            }
        }
        suspected = nil; suspectedSince = nil
        if longGood {
            offset = long.offset
            offsetAliases = long.aliases
            uncertainty = long.absoluteSigma
            fittedStrength = long.strength
            state = .converged
            if now - lastSoftIronFit >= settings.softIronEverySeconds {
                lastSoftIronFit = now
                refineSoftIron(reference: reference, from: long, softIron: s0)
            }
        } else if uncertainty == nil {
            state = .collecting
        } else {
            state = .converged
        }
    }

    /// The 1σ (µT, per axis) a recent fit's offset differs from the one in use by when nothing changed:
    /// its own scatter and dip error, and the difference of the two fits' quadrantal aliases.
    static func changeSigma(_ recent: Fit, inUseAliases: [Vector3]) -> Vector3 {
        var variance = Vector3(recent.absoluteSigma.x * recent.absoluteSigma.x, recent.absoluteSigma.y * recent.absoluteSigma.y,
                               recent.absoluteSigma.z * recent.absoluteSigma.z)
        for (q, alias) in recent.aliases.enumerated() {
            let d = alias - (q < inUseAliases.count ? inUseAliases[q] : .zero)
            variance += Vector3(d.x * d.x, d.y * d.y, d.z * d.z)
        }
        return Vector3(variance.x.squareRoot(), variance.y.squareRoot(), variance.z.squareRoot())
    }

    /// The soft iron, when the window's data constrain it: every one of its five shape terms (a
    /// symmetric, trace-free correction; its overall scale is the field strength's, and a heading does
    /// not depend on it) known to `maximumSoftIronUncertainty` from the field's strength and the gyro
    /// alone, and the correction both significant (χ² of 5 terms past its 0.1 % tail) and at least
    /// `minimumChange` as a field error. Why from the strength and the gyro alone: a level drive or
    /// sail turns the field about one axis only, and there the soft iron's part that commutes with that
    /// turn (more field along the vertical than the horizontal, or less) is pinned only by the WMM's dip;
    /// a local anomaly of a degree in the dip would then be learned as soft iron. Only rich 3-D motion
    /// (a tumble, a boat pitching and rolling hard in every direction) constrains all five terms by the
    /// field's own strength, as a calibration does; otherwise the soft iron is left as the profile has it.
    private mutating func refineSoftIron(reference: (strength: Double, sinDip: Double), from long: Fit, softIron s0: Matrix3) {
        let slow = blocks.filter { $0.time >= lastChange && $0.turn <= settings.softIronMaximumBlockTurnDegrees }
        guard let limit = settings.maximumSoftIronUncertainty, slow.count >= 20,
              Self.directionSpread(slow, offset: long.offset, softIron: s0) >= settings.softIronMinimumDirectionSpread,
              let soft = fit(slow, reference: reference, start: long.offset, softIron: s0, fitSoftIron: true),
              let shape = soft.shape else { return }
        let field = soft.strength
        // The offset the soft-iron fit finds (from |B| and the gyro) must agree with the one in use
        // (with the dip as well): two models of one environment that disagree by a change are not trusted.
        guard shape.sigma * field <= limit, shape.chiSquare >= 20.5, shape.size * field >= settings.minimumChange,
              (soft.offset - long.offset).norm < settings.minimumChange, isUsable(soft, blocks: slow) else { return }
        softIron = soft.softIron
        softIronUncertainty = shape.sigma * field
        softIronAdoptions += 1
    }

    /// The smallest eigenvalue of the covariance of the blocks' field directions (body axes).
    static func directionSpread(_ blocks: [RefinerBlock], offset: Vector3, softIron: Matrix3) -> Double {
        let units = blocks.compactMap { (softIron * ($0.field - offset)).normalized }
        guard units.count >= 3 else { return 0 }
        let mean = Linear.mean(units) ?? .zero
        var c = Matrix3(rows: .zero, .zero, .zero)
        for u in units {
            let d = u - mean
            c = c + Matrix3(rows: d * d.x, d * d.y, d * d.z)
        }
        return (c / Double(units.count)).symmetricEigen()?.values.x ?? 0
    }

    /// Whether the newest blocks are explained by `candidate` at least as well as by the offset in
    /// use (a transient that has gone away is not).
    private func newestAgree(with candidate: Fit, now: Double, reference: (strength: Double, sinDip: Double)) -> Bool {
        let newest = blocks.filter { $0.time >= now - settings.confirmationSeconds }
        guard newest.count >= 4 else { return false }
        let s0 = softIron ?? .identity
        let withCandidate = Self.cost(newest, offset: candidate.offset, softIron: s0, strength: candidate.strength,
                                      sinDip: reference.sinDip, scale: candidate.scale)
        let withCurrent = Self.cost(newest, offset: offset, softIron: s0, strength: candidate.strength,
                                    sinDip: reference.sinDip, scale: candidate.scale)
        return withCandidate <= withCurrent
    }

    private func isUsable(_ f: Fit, blocks: [RefinerBlock]) -> Bool {
        f.horizontalSigma <= settings.maximumUncertainty
            && Self.headingSpan(blocks, weights: f.weights) >= settings.minimumHeadingSpanDegrees
    }

    /// The span of headings (degrees) the well-weighted blocks cover: 360 minus the largest gap.
    static func headingSpan(_ blocks: [RefinerBlock], weights: [Double]) -> Double {
        var bins = [Bool](repeating: false, count: 72)
        for (b, w) in zip(blocks, weights) where w > 0.5 {
            bins[min(71, Int(wrap360(b.heading) / 5))] = true
        }
        guard bins.contains(true) else { return 0 }
        var largestGap = 0, gap = 0
        // Twice round, so a gap across north counts whole.
        for i in 0..<144 {
            if bins[i % 72] { gap = 0 } else { gap += 1; largestGap = max(largestGap, gap) }
        }
        return Double(72 - min(72, largestGap)) * 5
    }

    // MARK: The fit

    struct Fit {
        var offset: Vector3
        var strength: Double
        /// 1σ with the reference dip's uncertainty added (what the offset is known to, absolutely, and
        /// what a change is judged by).
        var absoluteSigma: Vector3
        /// What a 1σ quadrantal deviation (`unmodelledDeviationDegrees`) of each phase moves the offset
        /// by, for the headings this fit's blocks cover (none for a soft-iron fit).
        var aliases: [Vector3]
        var horizontalSigma: Double
        var cost: Double
        var weights: [Double]
        /// The residual scales (µT) of the strength, dip and gyro rows.
        var scale: (strength: Double, dip: Double, gyro: Double)
        /// The soft iron of the fit (the one it started from, times the fitted shape when it fitted one).
        var softIron: Matrix3
        /// The fitted soft-iron shape, when it fitted one.
        var shape: Shape?
    }

    /// The fitted soft-iron shape E (trace-free, symmetric; S = (I + E)·S₀).
    struct Shape {
        /// The largest 1σ over every direction of its five terms, from the field's strength and the gyro
        /// alone (dimensionless: a fraction of the field).
        var sigma: Double
        /// Its χ² against no change (the full fit's covariance).
        var chiSquare: Double
        /// Its largest eigenvalue's magnitude (a fraction of the field).
        var size: Double
    }

    /// The trace-free symmetric matrix of the five shape terms.
    static func shapeMatrix(_ e: [Double]) -> Matrix3 {
        Matrix3(rows: Vector3(e[0], e[2], e[3]), Vector3(e[2], e[1], e[4]), Vector3(e[3], e[4], -e[0] - e[1]))
    }

    /// The two phases of a quadrantal soft iron about `down` (trace-free, symmetric, nothing along the
    /// vertical): h₁h₁ᵀ − h₂h₂ᵀ and h₁h₂ᵀ + h₂h₁ᵀ with h₁, h₂ an orthonormal pair across `down`. A
    /// fraction θ of either turns a level heading by θ·sin 2h or θ·cos 2h (radians).
    static func quadrantalShapes(down: Vector3) -> [Matrix3] {
        let d = down.normalized ?? Vector3(0, 0, 1)
        let seed = abs(d.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        guard let h1 = (seed - d * seed.dot(d)).normalized else { return [] }
        let h2 = d.cross(h1)
        func outer(_ a: Vector3, _ b: Vector3) -> Matrix3 { Matrix3(rows: b * a.x, b * a.y, b * a.z) }
        return [outer(h1, h1) - outer(h2, h2), outer(h1, h2) + outer(h2, h1)]
    }

    /// The shape's basis applied to u: the derivatives of E·u by each of the five terms.
    static func shapeBasis(_ u: Vector3) -> [Vector3] {
        [Vector3(u.x, 0, -u.z), Vector3(0, u.y, -u.z), Vector3(u.y, u.x, 0), Vector3(u.z, 0, u.x), Vector3(0, u.z, u.y)]
    }

    /// Robust Gauss–Newton over the blocks: parameters b (3), F, the residual gyro bias (3, rad/s)
    /// and, with `fitSoftIron`, the five soft-iron shape terms, with priors on F, the bias and the
    /// shape; the field the fit explains is S₀·(m − b), or (I + E)·S₀·(m − b). Residual scales from
    /// the data (MAD), Cauchy-like weights past 3σ. Each kind of row (strength, dip, gyro) counts its
    /// blocks as independent only as far as its residuals are: they follow the motion (a wave's heel,
    /// the attitude filter's tilt error) over many half-second blocks, so each kind's weights are divided
    /// by (1 + ρ)/(1 − ρ), ρ the lag-one correlation of its residuals in time, the blocks per independent
    /// one; without it the confidence counts one error many times over.
    func fit(_ blocks: [RefinerBlock], reference: (strength: Double, sinDip: Double), start: Vector3,
             softIron s0: Matrix3 = .identity, fitSoftIron: Bool = false) -> Fit? {
        let n = fitSoftIron ? 12 : 7
        var b = start, strength = reference.strength, bias = Vector3.zero
        var e = [Double](repeating: 0, count: 5)
        let pairStep = max(1, Int((settings.pairSeconds / settings.blockSeconds).rounded()))
        var pairs: [(Int, Int, Matrix3)] = []
        for i in blocks.indices {
            let j = i + pairStep
            guard j < blocks.count, let ci = blocks[i].orientation, let cj = blocks[j].orientation,
                  abs(blocks[j].time - blocks[i].time - settings.pairSeconds) < settings.blockSeconds else { continue }
            pairs.append((i, j, cj.transposed * ci))
        }
        let floor = 0.05
        var scale = (strength: 1.0, dip: 1.0, gyro: 1.0)
        // Blocks per independent one, for each kind of row.
        var inflation = (strength: 1.0, dip: 1.0, gyro: 1.0)
        // Σ w·J·∂r/∂(sin dip) over the dip rows: how the reference dip moves the solution.
        var dipConsider = [Double](repeating: 0, count: n)
        // The same by the two phases of a quadrantal soft iron (`unmodelledDeviationDegrees`) about the
        // blocks' mean down, when the shape is not fitted: h₁h₁ᵀ − h₂h₂ᵀ and h₁h₂ᵀ + h₂h₁ᵀ, h₁ and h₂
        // horizontal.
        var quadrantalConsider = [[Double]](repeating: [Double](repeating: 0, count: n), count: fitSoftIron ? 0 : 2)
        let quadrantal = fitSoftIron ? [] : Self.quadrantalShapes(down: Linear.mean(blocks.map(\.down)) ?? Vector3(0, 0, 1))
        var weightsF = [Double](repeating: 1, count: blocks.count)
        var weightsD = weightsF
        var weightsG = [Double](repeating: 1, count: pairs.count)
        var normal = DenseMatrix(n: n)
        // The same with each kind's rows counted as often as they are independent: the stated confidence.
        var inflated = DenseMatrix(n: n)
        // The strength and gyro rows alone (no dip, no prior on F): what says whether the shape is known.
        var intrinsic = DenseMatrix(n: n)
        var cost = 0.0
        let strengthPrior = settings.fieldStrengthPrior * reference.strength
        let biasPrior = settings.gyroBiasPrior * .pi / 180
        // The shape's prior: a tenth of the field, far wider than any soft iron a profile leaves.
        let shapePrior = 0.1
        for iteration in 0..<6 {
            let shape = fitSoftIron ? Matrix3.identity + Self.shapeMatrix(e) : .identity
            let s = shape * s0
            // Residuals at the current parameters.
            var rF = [Double](), rD = [Double](), rG = [Vector3]()
            rF.reserveCapacity(blocks.count); rD.reserveCapacity(blocks.count); rG.reserveCapacity(pairs.count)
            for k in blocks {
                let v = s * (k.field - b)
                rF.append(v.norm - strength)
                rD.append(v.dot(k.down) - strength * reference.sinDip)
            }
            for (i, j, r) in pairs {
                let vi = s * (blocks[i].field - b)
                let t = blocks[j].time - blocks[i].time
                rG.append(s * (blocks[j].field - b) - r * vi + (r * vi.cross(bias)) * t)
            }
            if iteration < 3 {
                // Scales from the data, then weights.
                let centreF = RobustStatistics.median(rF), centreD = RobustStatistics.median(rD)
                scale.strength = max(floor, 1.4826 * RobustStatistics.median(rF.map { abs($0 - centreF) }))
                scale.dip = max(floor, 1.4826 * RobustStatistics.median(rD.map { abs($0 - centreD) }))
                if !rG.isEmpty {
                    scale.gyro = max(floor, 1.4826 * RobustStatistics.median(rG.map { $0.norm }) / 1.54)
                }
                inflation = (Self.inflation(rF, scale: scale.strength), Self.inflation(rD, scale: scale.dip),
                             Self.inflation(rG.map { $0.norm }, scale: scale.gyro * 1.54))
            }
            func weight(_ u: Double) -> Double { abs(u) <= 3 ? 1 : 9 / (u * u) }
            for i in blocks.indices {
                weightsF[i] = weight(rF[i] / scale.strength)
                weightsD[i] = weight(rD[i] / scale.dip)
            }
            for i in pairs.indices { weightsG[i] = weight(rG[i].norm / (scale.gyro * 1.54)) }
            // Normal equations.
            normal = DenseMatrix(n: n)
            inflated = DenseMatrix(n: n)
            intrinsic = DenseMatrix(n: n)
            var rhs = [Double](repeating: 0, count: n)
            var row = [Double](repeating: 0, count: n)
            dipConsider = [Double](repeating: 0, count: n)
            for q in quadrantalConsider.indices { quadrantalConsider[q] = [Double](repeating: 0, count: n) }
            cost = 0
            // Σ w·J·∂r/∂(phase) for the current row, per quadrantal phase (`derivative(q)`).
            func consider(_ derivative: (Int) -> Double, _ w: Double) {
                for q in quadrantalConsider.indices {
                    let d = derivative(q)
                    for p in 0..<n { quadrantalConsider[q][p] -= w * row[p] * d }
                }
            }
            func add(_ residual: Double, _ w: Double, intrinsic isIntrinsic: Bool, inflation: Double = 1) {
                normal.addOuterUpper(row, weight: w)
                inflated.addOuterUpper(row, weight: w / inflation)
                if isIntrinsic && fitSoftIron { intrinsic.addOuterUpper(row, weight: w) }
                for q in 0..<n { rhs[q] -= w * row[q] * residual }
                cost += w * residual * residual
            }
            func set(_ a: Vector3, _ f: Double, _ c: Vector3, _ shapeTerms: [Double]? = nil) {
                row[0] = a.x; row[1] = a.y; row[2] = a.z; row[3] = f; row[4] = c.x; row[5] = c.y; row[6] = c.z
                if fitSoftIron { for q in 0..<5 { row[7 + q] = shapeTerms?[q] ?? 0 } }
            }
            let st = s.transposed
            for (i, k) in blocks.enumerated() {
                let u = s0 * (k.field - b)
                let v = shape * u
                let norm = v.norm
                guard norm > 0 else { continue }
                let unit = v / norm
                let basis = fitSoftIron ? Self.shapeBasis(u) : []
                // ∂|v|/∂b = −Sᵀ·v̂, ∂(v·down)/∂b = −Sᵀ·down; by a shape term, the basis applied to u.
                set((st * unit) * -1, -1, .zero, fitSoftIron ? basis.map { $0.dot(unit) } : nil)
                add(rF[i], weightsF[i] / (scale.strength * scale.strength), intrinsic: true, inflation: inflation.strength)
                // Each quadrantal phase applied to u, for both rows' derivatives by it.
                let shaped = quadrantal.map { $0 * u }
                consider({ shaped[$0].dot(unit) }, weightsF[i] / (scale.strength * scale.strength) / inflation.strength)
                // The dip rows lean on the attitude filter's down, whose errors in hard motion would be
                // learned as soft iron: the soft-iron fit, as a calibration, uses the strength and gyro alone.
                if !fitSoftIron {
                    set((st * k.down) * -1, -reference.sinDip, .zero)
                    let w = weightsD[i] / (scale.dip * scale.dip)
                    add(rD[i], w, intrinsic: false, inflation: inflation.dip)
                    for q in 0..<n { dipConsider[q] -= w / inflation.dip * row[q] * strength }
                    consider({ shaped[$0].dot(k.down) }, w / inflation.dip)
                }
            }
            for (p, pair) in pairs.enumerated() {
                let (i, j, r) = pair
                let ui = s0 * (blocks[i].field - b), uj = s0 * (blocks[j].field - b)
                let vi = shape * ui
                let t = blocks[j].time - blocks[i].time
                // ∂/∂b of (S(m_j − b) − R·S(m_i − b) + t·R(v_i × ε)): −(I − R)·S (the ε term's part is second order).
                let iMinusR = (Matrix3.identity - r) * s
                // ∂/∂ε of t·R(v_i × ε) = t·R·[v_i]×.
                let cross = Matrix3(rows: Vector3(0, -vi.z, vi.y), Vector3(vi.z, 0, -vi.x), Vector3(-vi.y, vi.x, 0))
                let ec = (r * cross) * t
                // By a shape term: B·u_j − R·B·u_i.
                let basis = fitSoftIron ? zip(Self.shapeBasis(uj), Self.shapeBasis(ui)).map { $0 - r * $1 } : []
                let w = weightsG[p] / (scale.gyro * scale.gyro)
                // By a quadrantal phase Q: Q·u_j − R·Q·u_i, for the three axes' rows.
                let turned = quadrantal.map { $0 * uj - r * ($0 * ui) }
                for axis in 0..<3 {
                    let a = axis == 0 ? iMinusR.r0 : (axis == 1 ? iMinusR.r1 : iMinusR.r2)
                    let c = axis == 0 ? ec.r0 : (axis == 1 ? ec.r1 : ec.r2)
                    set(a * -1, 0, c, fitSoftIron ? basis.map { $0[axis] } : nil)
                    add(rG[p][axis], w, intrinsic: true, inflation: inflation.gyro)
                    consider({ turned[$0][axis] }, w / inflation.gyro)
                }
            }
            // Priors: F about the expected strength, the residual gyro bias about zero, and a weak one
            // on b so a direction the data do not reach stays put rather than wandering.
            set(.zero, 1, .zero); add(strength - reference.strength, 1 / (strengthPrior * strengthPrior), intrinsic: false)
            for q in 0..<3 {
                var unit = Vector3.zero
                unit[q] = 1
                set(.zero, 0, unit); add(bias[q], 1 / (biasPrior * biasPrior), intrinsic: true)
                set(unit, 0, .zero); add(b[q] - start[q], 1 / (50 * 50), intrinsic: true)
            }
            if fitSoftIron {
                for q in 0..<5 {
                    var terms = [Double](repeating: 0, count: 5)
                    terms[q] = 1
                    set(.zero, 0, .zero, terms); add(e[q], 1 / (shapePrior * shapePrior), intrinsic: true)
                }
            }
            normal.symmetrize()
            guard let step = normal.solve(rhs) else { return nil }
            b += Vector3(step[0], step[1], step[2])
            strength += step[3]
            bias += Vector3(step[4], step[5], step[6])
            if fitSoftIron { for q in 0..<5 { e[q] += step[7 + q] } }
            guard b.isFinite, strength.isFinite, strength > 1, bias.isFinite, e.allSatisfy(\.isFinite) else { return nil }
            if iteration >= 3, Vector3(step[0], step[1], step[2]).norm < 1e-3,
               !fitSoftIron || (7..<12).allSatisfy({ abs(step[$0]) < 1e-5 }) { break }
        }
        guard let inverse = normal.inverse() else { return nil }
        // The data alone must pin the offset down (a finite 1σ on each axis).
        let sigma = Vector3(inverse[0, 0].squareRoot(), inverse[1, 1].squareRoot(), inverse[2, 2].squareRoot())
        // The worst horizontal direction: the larger eigenvalue of the x–y block.
        let a = inverse[0, 0], c = inverse[1, 1], d = inverse[0, 1]
        let worst = ((a + c) / 2 + (((a - c) / 2) * ((a - c) / 2) + d * d).squareRoot()).squareRoot()
        guard sigma.isFinite, worst.isFinite else { return nil }
        // The stated confidence: the rows counted as often as they are independent, and the reference dip's
        // uncertainty carried through, g = (JᵀWJ)⁻¹·Σ w·J·∂r/∂(sin dip) times σ(sin dip).
        inflated.symmetrize()
        guard let honest = inflated.inverse() else { return nil }
        let dipSigma = (1 - reference.sinDip * reference.sinDip).squareRoot() * settings.dipUncertaintyDegrees * .pi / 180
        func moved(by consider: [Double], sigma: Double) -> [Double] {
            (0..<3).map { p in (0..<n).reduce(0.0) { $0 + honest[p, $1] * consider[$1] } * sigma }
        }
        // A considered error moves the offset by g = (JᵀWJ)⁻¹·Σ w·J·∂r/∂(error) times its σ.
        let g = moved(by: dipConsider, sigma: dipSigma)
        let absoluteSigma = Vector3((honest[0, 0] + g[0] * g[0]).squareRoot(), (honest[1, 1] + g[1] * g[1]).squareRoot(),
                                    (honest[2, 2] + g[2] * g[2]).squareRoot())
        let deviationSigma = settings.unmodelledDeviationDegrees * .pi / 180
        let aliases = quadrantalConsider.map { moved(by: $0, sigma: deviationSigma) }.map { Vector3($0[0], $0[1], $0[2]) }
        guard absoluteSigma.isFinite else { return nil }
        let weights = zip(weightsF, weightsD).map { min($0, $1) }
        var shape: Shape?
        var softIron = s0
        if fitSoftIron {
            intrinsic.symmetrize()
            guard let free = intrinsic.inverse() else { return nil }
            var covariance = DenseMatrix(n: 5), marginal = DenseMatrix(n: 5)
            for p in 0..<5 { for q in 0..<5 { covariance[p, q] = inverse[7 + p, 7 + q]; marginal[p, q] = free[7 + p, 7 + q] } }
            let largest = marginal.symmetricEigenvalues().last ?? .infinity
            let chi = covariance.inverse().map { info in
                (0..<5).reduce(0.0) { total, p in total + (0..<5).reduce(0.0) { $0 + e[p] * info[p, $1] * e[$1] } }
            } ?? 0
            let m = Self.shapeMatrix(e)
            let size = m.symmetricEigen().map { max(abs($0.values.x), abs($0.values.y), abs($0.values.z)) } ?? .infinity
            guard largest.isFinite, largest >= 0, chi.isFinite, size.isFinite else { return nil }
            shape = Shape(sigma: largest.squareRoot(), chiSquare: chi, size: size)
            softIron = (Matrix3.identity + m) * s0
        }
        return Fit(offset: b, strength: strength, absoluteSigma: absoluteSigma, aliases: aliases, horizontalSigma: worst,
                   cost: cost / Double(max(1, blocks.count)), weights: weights, scale: scale,
                   softIron: softIron, shape: shape)
    }

    /// Blocks per independent one for residuals `r` in time order (scaled by `scale`): (1 + ρ)/(1 − ρ),
    /// ρ the lag-one correlation of the residuals (outliers clipped at 3σ), at most 100.
    static func inflation(_ r: [Double], scale: Double) -> Double {
        guard r.count >= 3, scale > 0 else { return 1 }
        let rho = CalibrationSolver.lagOneCorrelation(r.map { max(-3 * scale, min(3 * scale, $0)) })
        return min((1 + rho) / (1 - rho), 100)
    }

    /// The robust cost of `blocks` under an offset (strength and dip rows only), per block.
    static func cost(_ blocks: [RefinerBlock], offset: Vector3, softIron: Matrix3, strength: Double, sinDip: Double,
                     scale: (strength: Double, dip: Double, gyro: Double)) -> Double {
        var total = 0.0
        for k in blocks {
            let v = softIron * (k.field - offset)
            let u = (v.norm - strength) / scale.strength, w = (v.dot(k.down) - strength * sinDip) / scale.dip
            total += log1p(u * u / 9) + log1p(w * w / 9)
        }
        return total / Double(max(1, blocks.count))
    }

    /// The rotation matrix of a rotation vector (radians), Rodrigues' formula.
    static func rotation(_ v: Vector3) -> Matrix3 {
        let angle = v.norm
        guard angle > 1e-12 else {
            return Matrix3(rows: Vector3(1, -v.z, v.y), Vector3(v.z, 1, -v.x), Vector3(-v.y, v.x, 1))
        }
        let k = v / angle
        let s = sin(angle), c = 1 - cos(angle)
        let kx = Matrix3(rows: Vector3(0, -k.z, k.y), Vector3(k.z, 0, -k.x), Vector3(-k.y, k.x, 0))
        return Matrix3.identity + kx * s + (kx * kx) * c
    }
}
