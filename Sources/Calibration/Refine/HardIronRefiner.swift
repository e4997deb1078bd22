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
    /// The residual gyro bias allowed for (°/s, 1σ prior): it is fitted with the offset.
    public var gyroBiasPrior = 0.2
    /// The most blocks kept (memory is bounded whatever the run's length).
    public var maximumBlocks = 1200

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
    /// Its 1σ uncertainty (µT, per axis) once converged; nil before.
    public private(set) var uncertainty: Vector3?
    public private(set) var state: RefinementState = .waitingForReference
    /// The offset the recent data suggest while a change is suspected.
    public private(set) var suspected: Vector3?
    /// How many times a changed offset was adopted.
    public private(set) var adoptions = 0
    /// True once the offset has been known from the data (at least once).
    public var hasConverged: Bool { uncertainty != nil }

    private var reference: (strength: Double, sinDip: Double)?
    private var blocks: [RefinerBlock] = []
    /// Blocks inside a flagged disturbance, held until it is known whether it was transient.
    private var pending: [RefinerBlock] = []
    private var flaggedSince: Double?
    private var lastFlagged: Double?
    private var dropUntil = -Double.infinity
    // The block being collected.
    private var sum = Vector3.zero, downSum = Vector3.zero, count = 0, blockStart: Double?
    private var middle: Matrix3?, blockFlagged = false, blockHeading = 0.0
    // The gyro frame.
    private var gyroFrame: Matrix3 = .identity
    private var gyroValid = false
    private var lastTime: Double?
    private var lastSolve = -Double.infinity
    private var suspectedSince: Double?
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
            if gyroValid, dt > 0, dt <= 1 { gyroFrame = gyroFrame * Self.rotation(rate * (.pi / 180 * dt)) }
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
        sum = .zero; downSum = .zero; count = 0; blockStart = nil; middle = nil; blockFlagged = false
        gyroValid = false
    }

    private mutating func closeBlock(time: Double) {
        defer { sum = .zero; downSum = .zero; count = 0; blockStart = nil; middle = nil; blockFlagged = false }
        guard count > 0, let down = (downSum / Double(count)).normalized else { return }
        let block = RefinerBlock(time: time, field: sum / Double(count), down: down, orientation: middle,
                                 heading: blockHeading, flagged: blockFlagged)
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
        guard let long = fit(blocks, reference: reference, start: offset) else { return }
        let longGood = isUsable(long, blocks: blocks)
        var recentFit: Fit?
        if recent.count >= 20 {
            // From the offset in use and from the change suspected: the better explains the recent data.
            let starts = [offset, suspected].compactMap { $0 }
            recentFit = starts.compactMap { fit(recent, reference: reference, start: $0) }.min { $0.cost < $1.cost }
        }
        if let r = recentFit, isUsable(r, blocks: recent) {
            let difference = (r.offset - offset).norm
            let sigma = r.sigma.norm
            if difference > max(settings.minimumChange, 4 * sigma), newestAgree(with: r, now: now, reference: reference) {
                if suspected == nil || suspectedSince == nil { suspectedSince = now }
                suspected = r.offset
                state = .changeSuspected
                if let since = suspectedSince, now - since >= settings.persistenceSeconds {
                    // Adopted: what came before the change no longer describes the sensor.
                    offset = r.offset
                    uncertainty = r.sigma
                    fittedStrength = r.strength
                    adoptions += 1
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
            uncertainty = long.sigma
            fittedStrength = long.strength
            state = .converged
        } else if uncertainty == nil {
            state = .collecting
        } else {
            state = .converged
        }
    }

    /// Whether the newest blocks are explained by `candidate` at least as well as by the offset in
    /// use (a transient that has gone away is not).
    private func newestAgree(with candidate: Fit, now: Double, reference: (strength: Double, sinDip: Double)) -> Bool {
        let newest = blocks.filter { $0.time >= now - settings.confirmationSeconds }
        guard newest.count >= 4 else { return false }
        let withCandidate = Self.cost(newest, offset: candidate.offset, strength: candidate.strength,
                                      sinDip: reference.sinDip, scale: candidate.scale)
        let withCurrent = Self.cost(newest, offset: offset, strength: candidate.strength,
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
            var h = b.heading.truncatingRemainder(dividingBy: 360)
            if h < 0 { h += 360 }
            bins[min(71, Int(h / 5))] = true
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
        var sigma: Vector3
        var horizontalSigma: Double
        var cost: Double
        var weights: [Double]
        /// The residual scales (µT) of the strength, dip and gyro rows.
        var scale: (strength: Double, dip: Double, gyro: Double)
    }

    /// Robust Gauss–Newton over the blocks: parameters b (3), F, and the residual gyro bias (3,
    /// rad/s), with priors on F and the bias; residual scales from the data (MAD), Cauchy-like
    /// weights past 3σ.
    func fit(_ blocks: [RefinerBlock], reference: (strength: Double, sinDip: Double), start: Vector3) -> Fit? {
        let n = 7
        var b = start, strength = reference.strength, bias = Vector3.zero
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
        var weightsF = [Double](repeating: 1, count: blocks.count)
        var weightsD = weightsF
        var weightsG = [Double](repeating: 1, count: pairs.count)
        var normal = DenseMatrix(n: n)
        var cost = 0.0
        let strengthPrior = settings.fieldStrengthPrior * reference.strength
        let biasPrior = settings.gyroBiasPrior * .pi / 180
        for iteration in 0..<6 {
            // Residuals at the current parameters.
            var rF = [Double](), rD = [Double](), rG = [Vector3]()
            rF.reserveCapacity(blocks.count); rD.reserveCapacity(blocks.count); rG.reserveCapacity(pairs.count)
            for k in blocks {
                let v = k.field - b
                rF.append(v.norm - strength)
                rD.append(v.dot(k.down) - strength * reference.sinDip)
            }
            for (i, j, r) in pairs {
                let vi = blocks[i].field - b
                let t = blocks[j].time - blocks[i].time
                rG.append(blocks[j].field - b - r * vi + (r * vi.cross(bias)) * t)
            }
            if iteration < 3 {
                // Scales from the data, then weights.
                let centreF = RobustStatistics.median(rF), centreD = RobustStatistics.median(rD)
                scale.strength = max(floor, 1.4826 * RobustStatistics.median(rF.map { abs($0 - centreF) }))
                scale.dip = max(floor, 1.4826 * RobustStatistics.median(rD.map { abs($0 - centreD) }))
                if !rG.isEmpty {
                    scale.gyro = max(floor, 1.4826 * RobustStatistics.median(rG.map { $0.norm }) / 1.54)
                }
            }
            func weight(_ u: Double) -> Double { abs(u) <= 3 ? 1 : 9 / (u * u) }
            for i in blocks.indices {
                weightsF[i] = weight(rF[i] / scale.strength)
                weightsD[i] = weight(rD[i] / scale.dip)
            }
            for i in pairs.indices { weightsG[i] = weight(rG[i].norm / (scale.gyro * 1.54)) }
            // Normal equations.
            normal = DenseMatrix(n: n)
            var rhs = [Double](repeating: 0, count: n)
            var row = [Double](repeating: 0, count: n)
            cost = 0
            func add(_ residual: Double, _ w: Double) {
                normal.addOuterUpper(row, weight: w)
                for q in 0..<n { rhs[q] -= w * row[q] * residual }
                cost += w * residual * residual
            }
            func set(_ a: Vector3, _ f: Double, _ c: Vector3) {
                row[0] = a.x; row[1] = a.y; row[2] = a.z; row[3] = f; row[4] = c.x; row[5] = c.y; row[6] = c.z
            }
            for (i, k) in blocks.enumerated() {
                let v = k.field - b
                let norm = v.norm
                guard norm > 0 else { continue }
                set(v / -norm, -1, .zero)
                add(rF[i], weightsF[i] / (scale.strength * scale.strength))
                set(k.down * -1, -reference.sinDip, .zero)
                add(rD[i], weightsD[i] / (scale.dip * scale.dip))
            }
            for (p, pair) in pairs.enumerated() {
                let (i, j, r) = pair
                let vi = blocks[i].field - b
                let t = blocks[j].time - blocks[i].time
                // ∂/∂b of (m_j − b − R(m_i − b) + t·R(v_i × ε)): −(I − R) − t·R[ε]×ᵀ… (the last is second order).
                let iMinusR = Matrix3.identity - r
                // ∂/∂ε of t·R(v_i × ε) = t·R·[v_i]×.
                let cross = Matrix3(rows: Vector3(0, -vi.z, vi.y), Vector3(vi.z, 0, -vi.x), Vector3(-vi.y, vi.x, 0))
                let e = (r * cross) * t
                let w = weightsG[p] / (scale.gyro * scale.gyro)
                for axis in 0..<3 {
                    let a = axis == 0 ? iMinusR.r0 : (axis == 1 ? iMinusR.r1 : iMinusR.r2)
                    let c = axis == 0 ? e.r0 : (axis == 1 ? e.r1 : e.r2)
                    set(a * -1, 0, c)
                    add(rG[p][axis], w)
                }
            }
            // Priors: F about the expected strength, the residual gyro bias about zero, and a weak one
            // on b so a direction the data do not reach stays put rather than wandering.
            set(.zero, 1, .zero); add(strength - reference.strength, 1 / (strengthPrior * strengthPrior))
            for q in 0..<3 {
                var e = Vector3.zero
                e[q] = 1
                set(.zero, 0, e); add(bias[q], 1 / (biasPrior * biasPrior))
                set(e, 0, .zero); add(b[q] - start[q], 1 / (50 * 50))
            }
            normal.symmetrize()
            guard let step = normal.solve(rhs) else { return nil }
            b += Vector3(step[0], step[1], step[2])
            strength += step[3]
            bias += Vector3(step[4], step[5], step[6])
            guard b.isFinite, strength.isFinite, strength > 1, bias.isFinite else { return nil }
            if iteration >= 3, Vector3(step[0], step[1], step[2]).norm < 1e-3 { break }
        }
        guard let inverse = normal.inverse() else { return nil }
        let sigma = Vector3(inverse[0, 0].squareRoot(), inverse[1, 1].squareRoot(), inverse[2, 2].squareRoot())
        // The worst horizontal direction: the larger eigenvalue of the x–y block.
        let a = inverse[0, 0], c = inverse[1, 1], d = inverse[0, 1]
        let worst = ((a + c) / 2 + (((a - c) / 2) * ((a - c) / 2) + d * d).squareRoot()).squareRoot()
        guard sigma.isFinite, worst.isFinite else { return nil }
        let weights = zip(weightsF, weightsD).map { min($0, $1) }
        return Fit(offset: b, strength: strength, sigma: sigma, horizontalSigma: worst,
                   cost: cost / Double(max(1, blocks.count)), weights: weights, scale: scale)
    }

    /// The robust cost of `blocks` under an offset (strength and dip rows only), per block.
    static func cost(_ blocks: [RefinerBlock], offset: Vector3, strength: Double, sinDip: Double,
                     scale: (strength: Double, dip: Double, gyro: Double)) -> Double {
        var total = 0.0
        for k in blocks {
            let v = k.field - offset
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
