/// Settings of the magnetic disturbance detector.
public struct DisturbanceConfiguration: Sendable, Hashable {
    /// Relative departure of |B| from the reference beyond which the field is disturbed (0.15 = 15 %).
    public var fieldTolerance: Double = 0.15
    /// Departure of the measured inclination from the reference beyond which the field is disturbed.
    public var inclinationToleranceDegrees: Double = 10
    /// The flag clears only when both departures fall below this fraction of their tolerance.
    public var clearFraction: Double = 0.8
    /// Low-pass time constant on |B| and the inclination before comparing (s).
    public var smoothingSeconds: Double = 0.2
    /// Time constant of the running baseline used when no expected field is known (s).
    public var baselineSeconds: Double = 60

    public init() {}
}

/// The disturbance assessment of one sample.
public struct DisturbanceReading: Sendable, Hashable {
    public var disturbed: Bool
    /// Smoothed measured |B| minus the reference, µT.
    public var fieldError: Double
    /// Smoothed measured inclination minus the reference, degrees (nil without tilt or reference).
    public var inclinationError: Double?
    /// True when the reference is the expected (model) field, false for the running baseline.
    public var againstExpected: Bool
    /// Size of the anomaly as a field vector, µT: √(ΔB² + (F · Δinclination)²); 0 when not disturbed.
    public var anomaly: Double
    /// The reference inclination (the model's, else the running baseline), degrees; nil when none.
    public var referenceInclination: Double? = nil
}

/// Flags a magnetic disturbance (steel, magnets, currents) when the field strength or dip departs from
/// what the Earth field should be: the expected field when a model value is known, otherwise a slow
/// running baseline of the measurements (which learns 10× slower while disturbed, so a passing
/// disturbance does not become the norm). Hysteresis keeps the flag from flickering.
///
/// ```swift
/// var detector = DisturbanceDetector(configuration: DisturbanceConfiguration())
/// let r = detector.update(fieldStrength: 80, inclination: nil, expected: sydneyField, dt: 0.02)
/// r.disturbed   // true: 80 µT vs 57 µT expected is +40 %
/// ```
public struct DisturbanceDetector: Sendable, Hashable {
    public var configuration: DisturbanceConfiguration
    public private(set) var disturbed = false
    private var strength: Double?
    private var inclination: Double?
    private var baselineStrength: Double?
    private var baselineInclination: Double?
    private var baselineAge = 0.0, baselineInclinationAge = 0.0
    private var factor = SmoothingFactorCache()

    public init(configuration: DisturbanceConfiguration) { self.configuration = configuration }


    /// Forgets the short-term state (keeps the long-term baseline).
    public mutating func resetShortTerm() { strength = nil; inclination = nil }

    /// Feeds |B| (µT), the measured inclination (degrees, nil without tilt) and the expected field.
    public mutating func update(fieldStrength: Double, inclination measured: Double?,
                                expected: ExpectedField?, dt: Double) -> DisturbanceReading {
        let c = configuration
        let a = factor.factor(dt: dt, tau: c.smoothingSeconds)
        let s = strength.map { $0 + a * (fieldStrength - $0) } ?? fieldStrength
        strength = s
        var incl: Double?
        if let m = measured, m.isFinite {
            let i = inclination.map { $0 + a * (m - $0) } ?? m
            inclination = i
            incl = i
        } else {
            inclination = nil
        }

        let referenceStrength: Double
        var referenceInclination: Double?
        if let e = expected {
            referenceStrength = e.totalField
            referenceInclination = e.inclination
        } else {
            learnBaseline(strength: s, inclination: incl, dt: dt)
            referenceStrength = baselineStrength ?? s
            referenceInclination = baselineInclination
        }
        let fieldError = s - referenceStrength
        let inclinationError = incl.flatMap { i in referenceInclination.map { i - $0 } }
        let dip = abs(inclinationError ?? 0)
        let fieldLimit = c.fieldTolerance * Swift.max(0, referenceStrength)
        let dipLimit = c.inclinationToleranceDegrees
        if abs(fieldError) > fieldLimit || dip > dipLimit {
            disturbed = true
        } else if abs(fieldError) < c.clearFraction * fieldLimit && dip < c.clearFraction * dipLimit {
            disturbed = false
        }
        var anomaly = 0.0
        if disturbed {
            let tangential = referenceStrength * rad(dip)
            anomaly = (fieldError * fieldError + tangential * tangential).squareRoot()
        }
        return DisturbanceReading(disturbed: disturbed, fieldError: fieldError,
                                  inclinationError: inclinationError, againstExpected: expected != nil,
                                  anomaly: anomaly.isFinite ? anomaly : 0, referenceInclination: referenceInclination)
    }

    /// Running mean while young, then an exponential average with `baselineSeconds`; 10× slower
    /// while disturbed.
    private mutating func learnBaseline(strength s: Double, inclination i: Double?, dt: Double) {
        let slow = disturbed ? 10.0 : 1.0
        func weight(_ age: inout Double) -> Double {
            guard dt > 0 else { return age == 0 ? 1 : 0 }
            age = Swift.min(age + dt, configuration.baselineSeconds)
            return Swift.min(1, dt / (age * slow))
        }
        if let b = baselineStrength {
            baselineStrength = b + weight(&baselineAge) * (s - b)
        } else {
            baselineStrength = s
        }
        if let i {
            if let b = baselineInclination {
                baselineInclination = b + weight(&baselineInclinationAge) * (i - b)
            } else {
                baselineInclination = i
            }
        }
    }
}
