import Platform

/// Why a calibration did not pass. Every case's `message` names the reason and the fix.
///
/// ```swift
/// for issue in failure.issues { print(issue.message) }
/// // "too few samples (37 of 300 needed): keep turning the board slowly through every orientation"
/// ```
public enum CalibrationIssue: Error, Sendable, Hashable {
    /// Not enough distinct samples after thinning.
    case tooFewSamples(have: Int, need: Int)
    /// Every sample lies in one plane: the board only turned about one axis.
    case singlePlane(axis: BoardAxis)
    /// The samples do not determine any model well: too few different orientations.
    case tooFewOrientations
    /// Parts of the sphere of field directions are empty; `missing` is the side the gaps cluster on.
    case incompleteCoverage(coveragePercent: Double, gaps: Double, missing: BoardSide?, inclinationDegrees: Double?)
    /// The samples do not lie on the fitted surface closely enough.
    case residualTooLarge(percent: Double, limit: Double)
    /// The corrected field strength varies too much between samples.
    case spreadTooLarge(percent: Double, limit: Double)
    /// The corrected samples are lopsided about the centre.
    case wobbleTooLarge(percent: Double, limit: Double)
    /// Fitted field much stronger than the expected (World Magnetic Model) field.
    case fieldTooStrong(ratio: Double)
    /// Fitted field much weaker than expected.
    case fieldTooWeak(ratio: Double)
    /// Fitted field outside the plausible range for the unit.
    case fieldImplausible(value: Double, range: ClosedRange<Double>)
    /// The hard-iron offset exceeds the chip's measuring range.
    case offsetTooLarge(magnitude: Double, limit: Double)
    /// The soft-iron correction is beyond believable bounds.
    case softIronTooStrong(axisRatio: Double)
    /// Too many samples were outliers.
    case tooManyOutliers(rejected: Int, total: Int)
    /// No ellipsoid or sphere could be fitted.
    case fitFailed
    /// The calibration's predicted heading error (95 % bound at the worst heading, degrees) is
    /// over the limit, level or tilted by `tiltDegrees`.
    case headingErrorTooLarge(level: Double, tilted: Double, tiltDegrees: Double, levelLimit: Double, tiltedLimit: Double)
    /// The field changed while recording: at `fraction` of the recording (sample `index`) the
    /// centre moved by `shift` (input unit), worth about `headingDegrees` of heading.
    case fieldChanged(fraction: Double, index: Int, shift: Double, headingDegrees: Double)
    /// Guidance: the scatter is mostly white sensor noise of `noise` per sample (input unit), which
    /// averages out with more samples.
    case noisySensor(noise: Double, samples: Int)
    /// Guidance: a flat ring could be calibrated as a compass fixed in a vehicle, given the place.
    case ringNeedsLocation
    /// Guidance for a vehicle: the circles covered only `bins` of `of` 20° heading bins.
    case headingCircleIncomplete(bins: Int, of: Int)

    /// A short stable identifier (for logs and JSON).
    public var code: String {
        switch self {
        case .tooFewSamples: return "too_few_samples"
        case .singlePlane: return "single_plane"
        case .tooFewOrientations: return "too_few_orientations"
        case .incompleteCoverage: return "incomplete_coverage"
        case .residualTooLarge: return "residual_too_large"
        case .spreadTooLarge: return "spread_too_large"
        case .wobbleTooLarge: return "wobble_too_large"
        case .fieldTooStrong: return "field_too_strong"
        case .fieldTooWeak: return "field_too_weak"
        case .fieldImplausible: return "field_implausible"
        case .offsetTooLarge: return "offset_too_large"
        case .softIronTooStrong: return "soft_iron_too_strong"
        case .tooManyOutliers: return "too_many_outliers"
        case .fitFailed: return "fit_failed"
        case .headingErrorTooLarge: return "heading_error_too_large"
        case .fieldChanged: return "field_changed"
        case .noisySensor: return "noisy_sensor"
        case .ringNeedsLocation: return "ring_needs_location"
        case .headingCircleIncomplete: return "heading_circle_incomplete"
        }
    }

    /// What went wrong and what to do about it, in one sentence.
    public var message: String {
        switch self {
        case let .tooFewSamples(have, need):
            return "too few samples (\(have) of \(need) needed): keep turning the board slowly through every orientation"
        case let .singlePlane(axis):
            return "the samples lie in a single ring (the board only turned about its \(axis.phrase)): "
                + "tilt it, roll it and turn it upside down as well as turning it around; for a compass fixed in a vehicle, "
                + "give the place (--location LAT,LON) and record the accelerometer to use the vehicle calibration"
        case .tooFewOrientations:
            return "the board was held in too few orientations to work out the calibration: "
                + "turn it slowly through every orientation, including upside down and on each side"
        case let .incompleteCoverage(percent, gaps, missing, inclination):
            let head = "only \(formatPercent(percent)) % of orientations covered (gap score \(fixed(gaps, 1)))"
            guard let side = missing else {
                return head + (percent < 50
                    ? ": keep turning the board through every orientation, including upside down and on each side"
                    : ": keep turning the board slowly to fill the gaps between the orientations already covered")
            }
            return head + "; the field never pointed toward the board's \(side.rawValue) (\(side.axisLabel)): "
                + Self.advice(toward: side, inclinationDegrees: inclination) + " and keep turning"
        case let .residualTooLarge(percent, limit):
            let fix = percent > 15
                ? "the samples do not form a sphere: turn the board through every orientation, slowly and away from metal"
                : "the field changed while turning (moving metal, a motor or a current switched on?): keep away from metal and electrical loads and try again"
            return "fit error \(formatPercent(percent)) % of the field (limit \(formatPercent(limit)) %): " + fix
        case let .spreadTooLarge(percent, limit):
            return "corrected field strength varies by \(formatPercent(percent)) % (limit \(formatPercent(limit)) %): "
                + "keep the board away from metal, magnets and cables while turning, and try again"
        case let .wobbleTooLarge(percent, limit):
            return "the corrected samples are lopsided (wobble \(formatPercent(percent)) %, limit \(formatPercent(limit)) %): "
                + "turn the board evenly through every orientation, filling the sides you turned least"
        case let .fieldTooStrong(ratio):
            return "field \(formatPercent(ratio * 100)) % of expected: a magnet or steel nearby? "
                + "move away from metal (desks, cars, speakers) and try again"
        case let .fieldTooWeak(ratio):
            return "field \(formatPercent(ratio * 100)) % of expected: is the sensor shielded by steel, or is its range/gain setting wrong? "
                + "move away from steel structures and check the chip settings, then try again"
        case let .fieldImplausible(value, range):
            return "fitted field strength \(fixed(value, 1)) is outside the plausible "
                + "\(fixed(range.lowerBound, 1))–\(fixed(range.upperBound, 1)): "
                + "move away from magnets and steel, check the sensor's unit and gain, and try again"
        case let .offsetTooLarge(magnitude, limit):
            return "hard-iron offset \(fixed(magnitude, 1)) exceeds the sensor range \(fixed(limit, 1)): "
                + "a magnet or magnetised part is very close to the sensor; move the sensor away from magnets, speakers and motors"
        case let .softIronTooStrong(ratio):
            return "soft-iron distortion too strong (axis gains differ \(fixed(ratio, 1)) : 1): "
                + "steel is very close to the sensor; mount it away from steel screws, brackets and batteries"
        case let .tooManyOutliers(rejected, total):
            return "\(rejected) of \(total) samples were outliers: the field was disturbed while turning "
                + "(moving metal, motors, current in nearby cables?); keep still surroundings and try again"
        case .fitFailed:
            return "could not fit the samples: turn the board slowly through every orientation, away from metal, and try again"
        case let .headingErrorTooLarge(level, tilted, tilt, levelLimit, tiltedLimit):
            return "expected heading error ±\(fixed(level, 1))° level, ±\(fixed(tilted, 1))° at "
                + "\(fixed(tilt, 0))° tilt (limits ±\(fixed(levelLimit, 1))° and "
                + "±\(fixed(tiltedLimit, 1))°): the samples do not pin the calibration down well enough; "
                + "keep turning the board slowly through more orientations"
        case let .fieldChanged(fraction, index, shift, heading):
            return "the field changed \(formatPercent(fraction * 100)) % of the way through the recording (near sample \(index + 1)): "
                + "the centre moved by \(fixed(shift, shift < 5 ? 3 : 1)), worth about "
                + "\(fixed(heading, 1))° of heading; something magnetic moved or a current switched on nearby: "
                + "keep magnets, tools and cables still, then record again"
        case let .noisySensor(noise, samples):
            return "the scatter is mostly sensor noise (\(fixed(noise, noise < 5 ? 3 : 1)) per sample), which averages "
                + "out: \(samples) distinct samples are not yet enough; keep turning slowly for longer"
        case let .headingCircleIncomplete(bins, total):
            return "the circles covered \(bins * 20)° of heading (\(bins) of \(total) 20° sectors): "
                + "drive or steer two slow full circles, one each way if you can"
        case .ringNeedsLocation:
            return "a compass fixed in a vehicle can be calibrated from two slow full circles: record the accelerometer too "
                + "(ax,ay,az) and give the place (--location LAT,LON) so the expected field strength and dip are known"
        }
    }

    /// How to point a side of the board along the Earth's field.
    static func advice(toward side: BoardSide, inclinationDegrees: Double?) -> String {
        let dip = inclinationDegrees ?? 60
        if abs(dip) < 30 {
            return "point the board's \(side.rawValue) toward magnetic north"
        }
        let down = dip > 0
        switch (side, down) {
        case (.top, true), (.bottom, false): return "turn the board upside down"
        case (.bottom, true), (.top, false): return "hold the board the right way up"
        default: return "tilt the board so its \(side.rawValue) points \(down ? "down" : "up")"
        }
    }
}

/// A body axis, for describing rotations.
public enum BoardAxis: String, Sendable, Hashable {
    case x, y, z

    var phrase: String {
        switch self {
        case .x: return "front–back (x) axis"
        case .y: return "left–right (y) axis"
        case .z: return "vertical (z) axis"
        }
    }
}
