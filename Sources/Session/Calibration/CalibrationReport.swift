import Calibration
import Linear
import Platform

/// A fit with its figures over every usable sample it was made from (not only the thinned set the
/// solver judged), as stored in the profile and shown to the user.
///
/// ```swift
/// let outcome = CalibrationOutcome(result: result, samples: raw, expectedField: 57.3)
/// for line in outcome.summaryLines(unit: "µT") { print(line) }
/// let profile = outcome.profile(sensor: id, unit: "uT")
/// ```
struct CalibrationOutcome {
    let result: CalibrationResult
    /// Metrics of the fit over every usable sample.
    let overall: QualityMetrics
    /// RMS distance of the raw magnitudes from the fitted field strength, % (the "before" residual).
    let residualBeforePercent: Double
    let sampleCount: Int
    let expectedField: Double?

    /// - Parameter fullScale: the chip's range in the samples' unit; readings beyond it, and spikes
    ///   far outside the cloud of the others, count no more here than they did in the fit.
    init(result: CalibrationResult, samples: [Vector3], expectedField: Double?, fullScale: Double? = nil) {
        self.result = result
        let set = zip(samples, SpikeFilter.mask(samples, fullScale: fullScale)).compactMap { $1 ? $0 : nil }
        overall = QualityMetrics(samples: set, fit: result.fit, expectedFieldStrength: expectedField)
        residualBeforePercent = QualityMetrics.radialResidualPercent(set, fieldStrength: result.fit.fieldStrength)
        sampleCount = set.count
        self.expectedField = expectedField
    }

    /// The profile to store, its figures taken over every sample.
    func profile(sensor: SensorIdentity, unit: String, created: String) -> CalibrationProfile {
        var p = result.profile(sensor: sensor, created: created, unit: unit)
        p.residualPercent = overall.residualPercent
        p.coveragePercent = overall.coveragePercent
        p.spreadBeforePercent = overall.spreadBeforePercent
        p.spreadAfterPercent = overall.spreadAfterPercent
        p.wobblePercent = overall.wobblePercent
        return p
    }

    /// The before/after table and the fit's figures, one line each.
    func summaryLines(unit: String, decimals: Int = 1) -> [String] {
        let fit = result.fit
        var lines: [String] = []
        lines.append("model         " + modelName(fit.model) + ", \(result.usedCount) distinct samples"
                     + (result.rejectedCount > 0 ? " (\(result.rejectedCount) outliers dropped)" : "")
                     + " of \(sampleCount)")
        lines.append(String(repeating: " ", count: 17) + "before     after")
        lines.append("spread of |B|  " + column(overall.spreadBeforePercent) + "  →  " + percentText(overall.spreadAfterPercent))
        lines.append("residual       " + column(residualBeforePercent) + "  →  " + percentText(overall.residualPercent))
        var field = "field         " + reportNumber(fit.fieldStrength, decimals) + " " + unit
        if let expected = expectedField, expected > 0 {
            field += " (expected " + reportNumber(expected, decimals) + " " + unit + ", "
                + fixed(fit.fieldStrength / expected * 100, 0) + " %)"
        }
        lines.append(field)
        lines.append("offset        " + [fit.offset.x, fit.offset.y, fit.offset.z].map { reportNumber($0, decimals) }.joined(separator: " ")
                     + " " + unit)
        lines.append("coverage      " + fixed(overall.coveragePercent, 0) + " %   wobble " + percentText(overall.wobblePercent)
                     + "   gaps " + fixed(result.metrics.gaps, 1) + "   (guidance only)")
        lines.append(headingLine(result.headingError))
        if let seed = result.seed { lines.append("seed          " + seed.explanation) }
        if let d = result.diagnosis {
            var scatter = "scatter       white noise " + reportNumber(d.whiteNoise, 3) + " " + unit + " per sample (averages out), "
                + "systematic " + reportNumber(d.systematic, 3) + " " + unit
            if result.spikeCount > 0 { scatter += ", \(result.spikeCount) spike" + (result.spikeCount == 1 ? "" : "s") + " dropped" }
            lines.append(scatter)
        }
        return lines
    }

    private func column(_ v: Double) -> String {
        let text = percentText(v)
        return String(repeating: " ", count: max(0, 8 - text.count)) + text
    }
}

/// "heading error ±0.4° level, ±0.9° at 20° tilt (95 %, expected from the fit's uncertainty)".
func headingLine(_ p: HeadingErrorPrediction) -> String {
    func degrees(_ v: Double) -> String { v.isFinite ? "±" + fixed(v, v < 10 ? 1 : 0) + "°" : "unknown" }
    return "heading error " + degrees(p.level) + " level, " + degrees(p.tilted) + " at " + fixed(p.tiltDegrees, 0)
        + "° tilt (95 %, expected from the fit's uncertainty)"
}

/// "12.3 %", with two decimals under 10 %.
func percentText(_ v: Double) -> String { fixed(v, v < 10 ? 2 : 1) + " %" }

private func reportNumber(_ v: Double, _ decimals: Int) -> String {
    // Gauss-sized values need more digits than µT ones.
    abs(v) < 5 && decimals < 3 ? fixed(v, 4) : fixed(v, decimals)
}

/// "full (hard iron and soft iron)".
func modelName(_ model: CalibrationModel) -> String {
    switch model {
    case .full: return "full (hard iron and full soft iron)"
    case .diagonal: return "diagonal (hard iron and per-axis gain)"
    case .offset: return "offset (hard iron only)"
    }
}
