import Foundation
import Heading
import Linear
import Testing

@Suite struct AccuracyModelTests {
    @Test func noiseTermIsNoiseOverHorizontalFieldReducedBySmoothing() {
        var model = AccuracyModel()
        model.calibrationResidualMicrotesla = 0
        model.tiltUncertaintyDegrees = 0
        let raw = model.accuracy(AccuracyInputs(horizontalField: 25, verticalField: 51, smoothingAlpha: 1))
        #expect(raw.noise.isApproximatelyEqual(to: degrees(atan(0.2 / 25)), absoluteTolerance: 1e-9))  // ≈ 0.46°
        #expect(raw.total.isApproximatelyEqual(to: raw.noise, absoluteTolerance: 1e-9))
        let alpha = 0.04
        let smoothed = model.accuracy(AccuracyInputs(horizontalField: 25, verticalField: 51, smoothingAlpha: alpha))
        #expect(smoothed.noise.isApproximatelyEqual(to: raw.noise * (alpha / (2 - alpha)).squareRoot(), relativeTolerance: 1e-4))
    }

    @Test func termsAddInQuadrature() {
        let model = AccuracyModel()
        let a = model.accuracy(AccuracyInputs(horizontalField: 20, verticalField: 40, smoothingAlpha: 0.1,
                                              tiltNoise: 0.001, disturbance: 3))
        let quadrature = (a.noise * a.noise + a.calibration * a.calibration + a.tilt * a.tilt
            + a.levelOnly * a.levelOnly + a.disturbance * a.disturbance).squareRoot()
        #expect(abs(a.total - quadrature) < 0.05 * quadrature)
        #expect(a.total == model.totalAccuracy(AccuracyInputs(horizontalField: 20, verticalField: 40, smoothingAlpha: 0.1,
                                                              tiltNoise: 0.001, disturbance: 3)))
        // Tilt term ≈ tilt error × tan(inclination): 0.5° × 40/20.
        #expect(abs(a.tilt - 1.0) < 0.01)
    }

    @Test func levelOnlyAndHeldTiltCostMore() {
        let model = AccuracyModel()
        let known = model.totalAccuracy(AccuracyInputs(horizontalField: 25, verticalField: 51, smoothingAlpha: 0.05))
        let held = model.totalAccuracy(AccuracyInputs(horizontalField: 25, verticalField: 51, smoothingAlpha: 0.05, tiltHeld: true))
        let level = model.accuracy(AccuracyInputs(horizontalField: 25, verticalField: 51, smoothingAlpha: 0.05, tiltKnown: false))
        #expect(known < held && held < level.total)
        // Level-only: assumed 5° tilt × tan(64°) ≈ 10°.
        #expect(abs(level.levelOnly - degrees(atan(radians(5) * 51 / 25))) < 1e-9)
    }

    @Test func weakOrBadFieldIsUnavailableNeverNaN() {
        let model = AccuracyModel()
        for h in [0.0, 0.5, -3, .nan, .infinity] {
            let a = model.accuracy(AccuracyInputs(horizontalField: h, verticalField: 50))
            #expect(a.total == AccuracyModel.unavailable)
        }
        let weird = model.accuracy(AccuracyInputs(horizontalField: 2, verticalField: 1e300, smoothingAlpha: .nan,
                                                  tiltNoise: .infinity, disturbance: .nan))
        #expect(weird.total.isFinite && weird.total <= AccuracyModel.unavailable)
        #expect(model.totalAccuracy(AccuracyInputs(horizontalField: 25, verticalField: .nan)) == AccuracyModel.unavailable)
    }
}

@Suite struct DisturbanceTests {
    func expected() -> ExpectedField {
        ExpectedField(declination: 12.8, inclination: -64, totalField: sydneyMagneticNED.norm, horizontalField: 25)
    }

    func filter(withModel: Bool) -> HeadingFilter {
        var config = HeadingFilterConfiguration()
        if withModel {
            let field = expected()
            config.declinationSource = .location(latitude: -33.9, longitude: 151.2)
            config.fieldProvider = { _, _, _ in field }
        }
        return HeadingFilter(configuration: config)
    }

    /// Runs 2 s clean, 2 s with `anomaly` (NED, µT) added to the field, 3 s clean again.
    func scenario(_ f: inout HeadingFilter, anomaly: Vector3, accelerometer: Bool = true)
        -> (before: HeadingEstimate, during: HeadingEstimate, after: HeadingEstimate) {
        var g = SampleGenerator(seed: 4)
        g.withAccelerometer = accelerometer
        var marks: [HeadingEstimate] = []
        for (seconds, extra) in [(10.0, Vector3.zero), (2, anomaly), (3, .zero)] {
            g.field = sydneyMagneticNED + extra
            let start = marks.isEmpty ? 0 : marks.last!.monotonic + 0.02
            let out = run(&f, generator: &g, rate: 50, from: start, duration: seconds) { _ in 60 }
            marks.append(out.last!.estimate)
        }
        return (marks[0], marks[1], marks[2])
    }

    @Test(arguments: [true, false])
    func strongerFieldIsFlaggedAndCostsAccuracy(withModel: Bool) {
        var f = filter(withModel: withModel)
        let r = scenario(&f, anomaly: Vector3(0, 0, -15))  // +~25 % |B|
        #expect(!r.before.flags.contains(.disturbed))
        #expect(r.during.flags.contains(.disturbed))
        #expect(r.during.accuracy > r.before.accuracy + 5)
        #expect(!r.after.flags.contains(.disturbed))
        #expect(abs(r.after.accuracy - r.before.accuracy) < 0.3)
    }

    @Test func dipChangeAloneIsFlaggedWithTilt() {
        // Rotate the field 15° steeper, |B| unchanged: only the inclination check can see it.
        let f0 = sydneyMagneticNED
        let steeper = Matrix3.rotation(roll: 0, pitch: radians(15), yaw: 0) * f0
        #expect(abs(steeper.norm - f0.norm) < 1e-9)
        var f = filter(withModel: true)
        let r = scenario(&f, anomaly: steeper - f0)
        #expect(r.during.flags.contains(.disturbed))
        #expect(try! #require(r.during.inclination) < -74)
        // Without the accelerometer there is no measured inclination: |B| alone cannot tell.
        var level = filter(withModel: true)
        let l = scenario(&level, anomaly: steeper - f0, accelerometer: false)
        #expect(!l.during.flags.contains(.disturbed) && l.during.inclination == nil)
    }

    @Test func smallChangesAreNotFlagged() {
        var f = filter(withModel: false)
        let r = scenario(&f, anomaly: Vector3(2, 1, -3))  // ~5 %
        #expect(!r.during.flags.contains(.disturbed))
    }
}
