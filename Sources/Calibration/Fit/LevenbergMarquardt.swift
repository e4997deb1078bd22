import Linear

/// The outcome of a Levenberg–Marquardt refinement on the unit-sphere model.
struct RefinedFit: Sendable {
    var parameters: UnitSphereParameters
    var model: CalibrationModel
    /// Root-mean-square geometric radial residual, in the units of the points.
    var rms: Double
    /// The fitted radius 1/det(M)^⅓, in the units of the points.
    var radius: Double
    /// Reciprocal condition number of the normal matrix JᵀJ at the solution (correlation form).
    var conditionReciprocal: Double
    /// The largest standard error of any parameter, relative to its scale (offset over the
    /// radius, matrix entries over the mean diagonal): rms² · (JᵀJ)⁻¹ on the diagonal.
    var relativeUncertainty: Double
    var iterations: Int
    /// (JᵀJ)⁻¹ at the solution: times the residual variance, the parameters' covariance (nil when
    /// JᵀJ is singular).
    var normalInverse: DenseMatrix?
    /// Points the fit was made on.
    var count: Int
}

/// Levenberg–Marquardt on the geometric radial residuals |Mₙ·(x − o)| − r, where the model is
/// held in the unit-sphere form |M·(x − o)| = 1 with Mₙ = M/det(M)^⅓ and r = 1/det(M)^⅓
/// (Marquardt's diagonal scaling). The residual is a distance in the units of the points, so
/// an inflated radius does not look like a better fit.
///
/// Works in whatever coordinates the points are given; the solver feeds it centred, scaled
/// points so the parameters are of order 1.
enum LevenbergMarquardt {
    static func refine(_ points: [Vector3], model: CalibrationModel, start: UnitSphereParameters,
                       maxIterations: Int = 60) -> RefinedFit? {
        let k = model.parameterCount
        guard points.count >= k else { return nil }
        let packed = start.packed(model)
        guard packed.allSatisfy(\.isFinite) else { return nil }
        guard let (p, normal, cost, iterations) = minimize(start: packed, maxIterations: maxIterations, tolerance: 1e-10,
                                                           system: { accumulate(points, UnitSphereParameters(packed: $0, model: model), model) })
        else { return nil }
        let params = UnitSphereParameters(packed: p, model: model)
        guard params.offset.isFinite, params.matrix.isFinite, let scale = params.scale(model) else { return nil }
        return RefinedFit(parameters: params, model: model,
                          rms: (cost / Double(points.count)).squareRoot(), radius: 1 / scale.g,
                          conditionReciprocal: normal.correlationConditionReciprocal(),
                          relativeUncertainty: uncertainty(normal, params: params, model: model,
                                                           rms: (cost / Double(points.count)).squareRoot()),
                          iterations: iterations, normalInverse: normal.inverse(), count: points.count)
    }

    /// The damped Gauss–Newton iteration itself: `system(p)` gives JᵀJ, Jᵀr and Σr² at p; a
    /// step is taken when it lowers the cost (then the damping falls tenfold), else the damping
    /// rises tenfold. Stops when the relative decrease is under `tolerance`, the damping exceeds
    /// 1e12 or after `maxIterations`. Returns the parameters, JᵀJ and the cost there.
    static func minimize(start: [Double], maxIterations: Int, tolerance: Double,
                         system: ([Double]) -> (DenseMatrix, [Double], Double))
        -> (parameters: [Double], normal: DenseMatrix, cost: Double, iterations: Int)? {
        var p = start
        var (normal, gradient, cost) = system(p)
        guard cost.isFinite else { return nil }
        let k = p.count
        var lambda = 1e-3
        var iterations = 0
        while iterations < maxIterations {
            iterations += 1
            var damped = normal
            for i in 0..<k { damped[i, i] += lambda * max(normal[i, i], 1e-12) }
            guard let step = damped.solve(gradient.map { -$0 }) else {
                lambda *= 10
                if lambda > 1e12 { break }
                continue
            }
            let trial = zip(p, step).map { $0 + $1 }
            let (n2, g2, c2) = system(trial)
            if c2.isFinite, c2 < cost {
                let relative = (cost - c2) / max(cost, 1e-300)
                p = trial; normal = n2; gradient = g2; cost = c2
                lambda = max(lambda / 10, 1e-12)
                if relative < tolerance { break }
            } else {
                lambda *= 10
                if lambda > 1e12 { break }
            }
        }
        return (p, normal, cost, iterations)
    }

    static func uncertainty(_ normal: DenseMatrix, params: UnitSphereParameters, model: CalibrationModel,
                            rms: Double) -> Double {
        guard let scale = params.scale(model) else { return .infinity }
        let radius = 1 / scale.g
        let matrixScale = (params.matrix[0, 0] + params.matrix[1, 1] + params.matrix[2, 2]) / 3
        var worst = 0.0
        for i in 0..<model.parameterCount {
            var e = [Double](repeating: 0, count: model.parameterCount)
            e[i] = 1
            guard let column = normal.solve(e), column[i] >= 0 else { return .infinity }
            let sigma = rms * column[i].squareRoot()
            worst = max(worst, i < 3 ? sigma / radius : sigma / max(abs(matrixScale), 1e-300))
        }
        return worst
    }

    /// JᵀJ, Jᵀf and Σf² for the current parameters.
    static func accumulate(_ points: [Vector3], _ params: UnitSphereParameters,
                           _ model: CalibrationModel) -> (DenseMatrix, [Double], Double) {
        let k = model.parameterCount
        var normal = DenseMatrix(n: k)
        var jtf = [Double](repeating: 0, count: k)
        var row = [Double](repeating: 0, count: k)
        var cost = 0.0
        guard let scale = params.scale(model) else { return (normal, jtf, .infinity) }
        for x in points {
            guard let f = params.residual(x, model: model, scale: scale, gradient: &row) else { continue }
            cost += f * f
            for i in 0..<k { jtf[i] += row[i] * f }
            normal.addOuterUpper(row)
        }
        normal.symmetrize()
        return (normal, jtf, cost)
    }
}
