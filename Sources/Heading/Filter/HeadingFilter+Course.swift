/// Declination source and deviation card management.
extension HeadingFilter {
    /// Replaces the declination source (e.g. the user gave --declination or --location).
    ///
    /// ```swift
    /// filter.setDeclinationSource(.location(latitude: -33.87, longitude: 151.21))
    /// ```
    public mutating func setDeclinationSource(_ source: DeclinationSource) {
        declinationSource = source
    }

    /// A GNSS fix arrived: the source becomes `.wmm` at the fix, unless the user gave a manual
    /// declination (which always wins). Non-finite or out-of-range positions are ignored. The field
    /// model is consulted again only after moving more than the refresh distance.
    ///
    /// ```swift
    /// filter.updateFix(latitude: fix.latitude, longitude: fix.longitude)
    /// ```
    public mutating func updateFix(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return }
        if case .manual = declinationSource { return }
        declinationSource = .wmm(latitude: latitude, longitude: longitude)
    }

    /// Changes how the deviation card is used.
    public mutating func setDeviationMode(_ mode: DeviationMode) {
        configuration.deviationMode = mode
        cardInUse = mode != .off && deviationTable.isUsable
    }

    /// Replaces the deviation card (e.g. loaded from the calibration profile).
    public mutating func setDeviationTable(_ card: DeviationTable) {
        deviationTable = card
        cardInUse = configuration.deviationMode != .off && card.isUsable
    }

    /// Offers a GNSS course to the deviation card. It is learned only in `.learn` mode, at speed, with
    /// a small course error, on a steady course (low turn rate), with a recent, undisturbed heading and
    /// a known declination; the deviation is the course minus the uncorrected compass true heading.
    /// This assumes the vehicle moves the way it points (no reversing, crabbing or leeway).
    ///
    /// ```swift
    /// let r = filter.observeCourse(CourseObservation(monotonic: t, course: 93.0, courseError: 1.5, speed: 8))
    /// if case .learned(let sector, let deviation) = r { print(sector, deviation) }
    /// ```
    public mutating func observeCourse(_ o: CourseObservation) -> DeviationLearningResult {
        guard configuration.deviationMode == .learn else { return .rejected(.notLearning) }
        guard o.monotonic.isFinite, o.course.isFinite, o.speed.isFinite else { return .rejected(.invalid) }
        let gate = configuration.deviationLearning
        guard o.speed >= gate.minimumSpeed else { return .rejected(.tooSlow) }
        guard let error = o.courseError, error.isFinite else { return .rejected(.courseErrorUnknown) }
        guard error <= gate.maximumCourseError else { return .rejected(.courseErrorTooLarge) }
        guard let e = last else { return .rejected(.noHeading) }
        let compass = e.compassHeading
        guard abs(o.monotonic - e.monotonic) <= gate.maximumAge else { return .rejected(.tooOld) }
        guard abs(e.turnRate) <= gate.maximumTurnRate else { return .rejected(.turning) }
        guard let declination = e.declination else { return .rejected(.noDeclination) }
        let bad: HeadingFlags = [.disturbed, .blackout, .weakField, .saturated]
        guard e.flags.isDisjoint(with: bad) else { return .rejected(.disturbed) }
        let deviation = signedDifference(o.course, compass + declination)
        guard abs(deviation) <= gate.maximumDeviation else { return .rejected(.outlier) }
        deviationTable.learn(compassHeading: compass, deviation: deviation)
        cardInUse = deviationTable.isUsable
        return .learned(sector: deviationTable.sector(ofCompassHeading: compass), deviation: deviation)
    }
}
