import Linear

/// Fits each model with robust outlier rejection and picks the richest one the data supports.
struct ModelFitter {
    /// Centred, scaled distinct samples.
    let points: [Vector3]
    let options: CalibrationOptions

    struct Candidate {
        var fit: RefinedFit
        var inliers: [Bool]
        var coveredRegions: Int
    }

    /// Largest accepted relative standard error of any parameter (see `RefinedFit.relativeUncertainty`).
    static let maximumUncertainty = 0.01

    /// Covered regions (under the model's own correction) a model needs before it is trusted.
    static func minimumRegions(_ model: CalibrationModel) -> Int {
        switch model {
        case .offset: return 10
        case .diagonal: return 25
        case .full: return 35
        }
    }

    /// Whether the samples determine this candidate's parameters well: small standard errors
    /// (a model that does not fit has a large residual and so large errors too) and enough
    /// regions covered.
    static func isSupported(_ c: Candidate) -> Bool {
        c.fit.relativeUncertainty <= maximumUncertainty && c.coveredRegions >= minimumRegions(c.fit.model)
            && c.fit.parameters.matrix.symmetricEigen().map { $0.values.x > 0 } == true
    }

    /// Every model fitted, simplest first; the richest supported one is `chosen`. When none is
    /// supported, `chosen` is the best-determined candidate, marked `underdetermined`.
    func fitAll() -> (candidates: [Candidate], chosen: Int, underdetermined: Bool)? {
        guard let sphere = AlgebraicFit.sphere(points) else { return nil }
        let first = RobustStatistics.inliers(residuals(sphere), k: 5, floor: 0.05)
        guard let offsetFit = robustRefine(.offset, start: sphere, mask: first) else { return nil }
        var candidates = [offsetFit]
        if options.maximumModel >= .diagonal,
           let diagonal = robustRefine(.diagonal, start: offsetFit.fit.parameters, mask: offsetFit.inliers) {
            candidates.append(diagonal)
        }
        if options.maximumModel >= .full {
            let base = candidates[candidates.count - 1]
            let clean = zip(points, base.inliers).compactMap { $1 ? $0 : nil }
            let starts = [AlgebraicFit.ellipsoid(clean), base.fit.parameters].compactMap { $0 }
            let fulls = starts.compactMap { robustRefine(.full, start: $0, mask: base.inliers) }
            if let best = fulls.min(by: { $0.fit.rms < $1.fit.rms }) { candidates.append(best) }
        }
        if let chosen = candidates.lastIndex(where: Self.isSupported) { return (candidates, chosen, false) }
        guard let fallback = candidates.indices.min(by: {
            candidates[$0].fit.relativeUncertainty < candidates[$1].fit.relativeUncertainty
        }) else { return nil }
        return (candidates, fallback, true)
    }

    func residuals(_ p: UnitSphereParameters) -> [Double] {
        points.map { (p.matrix * ($0 - p.offset)).norm - 1 }
    }

    /// Refines `model`, then repeatedly re-selects inliers among ALL points by MAD and refits,
    /// until the inlier set (nearly) stops changing.
    func robustRefine(_ model: CalibrationModel, start: UnitSphereParameters, mask: [Bool]) -> Candidate? {
        var mask = mask
        var params = start
        var best: RefinedFit?
        for _ in 0..<6 {
            let subset = zip(points, mask).compactMap { $1 ? $0 : nil }
            guard let fit = LevenbergMarquardt.refine(subset, model: model, start: params) else { break }
            best = fit
            params = fit.parameters
            let next = RobustStatistics.inliers(residuals(params), k: options.outlierMADMultiple, floor: 0.01)
            let changed = zip(next, mask).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
            mask = next
            // Borderline points may flip back and forth; a handful of changes is convergence.
            if changed <= points.count / 500 { break }
        }
        guard let fit = best else { return nil }
        var coverage = SphereCoverage()
        for (p, keep) in zip(points, mask) where keep { coverage.add(direction: fit.parameters.matrix * (p - fit.parameters.offset)) }
        return Candidate(fit: fit, inliers: mask, coveredRegions: coverage.coveredRegions)
    }
}
