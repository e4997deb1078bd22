import Platform

/// A run of text in one style.
struct Segment {
    var text: String
    var style: Style
    init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// One line of a panel.
typealias PanelLine = [Segment]

/// The text of each dashboard panel, built from a (sanitised) state. Pure.
struct Panels {
    let state: DashboardState
    let labels: Labels
    let glyphs: Glyphs

    init(state: DashboardState) {
        self.state = state
        labels = Labels(language: state.language, ascii: state.asciiOnly)
        glyphs = Glyphs(ascii: state.asciiOnly)
    }

    // MARK: Heading

    /// "123.4°M", or "---.-°M" before the first sample; `padded` keeps the width fixed ("  7.5°M").
    func headingText(_ degrees: Double?, _ reference: HeadingReference, padded: Bool = false) -> String {
        guard let degrees, degrees.isFinite else { return "---.-" + glyphs.degree + reference.suffix }
        let number = padded ? NumberFormat.paddedHeading(degrees) : NumberFormat.heading(degrees)
        return number + glyphs.degree + reference.suffix
    }

    /// The shown heading's text and reference.
    var primaryText: String {
        let shown = state.shownHeading
        return headingText(shown?.degrees, shown?.reference ?? .magnetic, padded: true)
    }

    /// "SE  S 56.6° E", or the waiting message.
    var nameLine: PanelLine {
        guard state.shownHeading != nil else { return [Segment(labels.waiting, .dim)] }
        var line: PanelLine = []
        if !state.pointName.isEmpty { line.append(Segment(state.pointName, .bold)) }
        if !state.quadrant.isEmpty { line.append(Segment((line.isEmpty ? "" : "  ") + state.quadrant)) }
        return line
    }

    /// The other heading: "true 134.5°T" under a magnetic headline, or the reverse.
    var secondaryLine: PanelLine? {
        let shown = state.shownHeading?.reference ?? .magnetic
        if shown == .magnetic {
            if let t = state.trueHeading, t.isFinite {
                return [Segment(labels.trueWord + " " + headingText(t, .true))]
            }
            if state.primary == .true {
                return [Segment(labels.trueWord + ": " + labels.unknown, .dim)]
            }
            return nil
        }
        return [Segment(labels.magneticWord + " " + headingText(state.magneticHeading, .magnetic))]
    }

    /// One-line headline: "123.4°M  SE  S 56.6° E".
    var headline: PanelLine {
        var line: PanelLine = [Segment(primaryText, .bold)]
        let name = nameLine
        if !name.isEmpty { line.append(Segment("  ")); line += name }
        return line
    }

    // MARK: Quality

    var accuracyLine: PanelLine {
        var line: PanelLine = [Segment(labels.accuracy + " ")]
        if let a = state.accuracy, a.isFinite {
            line.append(Segment(glyphs.plusMinus + fixed(a, 1) + glyphs.degree))
        } else {
            line.append(Segment(labels.unknown, .dim))
        }
        return line
    }

    var disturbanceLine: PanelLine {
        let d = state.disturbance
        switch d.level {
        case .none:
            return [Segment(d.text.isEmpty ? labels.fieldOK : d.text)]
        case .warning:
            return [Segment(labels.disturbed + (d.text.isEmpty ? "" : ": " + d.text), .warning)]
        case .severe:
            return [Segment(labels.disturbed + (d.text.isEmpty ? "" : ": " + d.text), .alarm)]
        }
    }

    var declinationLine: PanelLine {
        var line: PanelLine = [Segment(labels.declination + " ")]
        if let d = state.declination, d.isFinite {
            let side = d > 0.05 ? "E" : (d < -0.05 ? "W" : "")
            line.append(Segment(fixed(abs(d), 1) + glyphs.degree + side))
        } else {
            line.append(Segment(labels.unknown, .dim))
        }
        if !state.declinationSource.isEmpty { line.append(Segment(" (" + state.declinationSource + ")", .dim)) }
        return line
    }

    var fieldLine: PanelLine {
        var text = labels.field + " "
        if let f = state.fieldStrength, f.isFinite {
            text += fixed(f, 1) + " " + glyphs.micro + "T"
        } else {
            text += labels.unknown
        }
        return [Segment(text)]
    }

    var tiltLine: PanelLine? {
        guard state.roll != nil || state.pitch != nil else { return nil }
        func angle(_ v: Double?, _ accuracy: Double?) -> String {
            guard let v, v.isFinite else { return "-" }
            var text = NumberFormat.signed(v, 1) + glyphs.degree
            if let a = accuracy, a.isFinite { text += glyphs.plusMinus + fixed(a, 1) + glyphs.degree }
            return text
        }
        let text = labels.roll + " " + angle(state.roll, state.rollAccuracy) + "  " + labels.pitch + " "
            + angle(state.pitch, state.pitchAccuracy)
        return [Segment(text)]
    }

    /// The rate of turn, on its own line below roll and pitch (with their accuracies they fill a panel's width).
    var rateLine: PanelLine? {
        guard let rate = state.rateOfTurn, rate.isFinite else { return nil }
        // Degrees per minute, as a rate-of-turn indicator shows it (negative to port).
        return [Segment(labels.rateOfTurn + " " + NumberFormat.signed(rate * 60, 0) + glyphs.degree + "/min")]
    }

    // MARK: Devices

    var sensorLines: [PanelLine] {
        let s = state.sensor
        guard !s.chip.isEmpty else { return [[Segment(labels.sensor + ": " + labels.noSensor, .dim)]] }
        var first = s.chip
        if let bus = s.bus { first += "  " + labels.bus + " " + String(bus) }
        if let address = s.address { first += "  " + NumberFormat.hex(address) }
        if let rate = s.rateHz, rate.isFinite { first += "  " + fixed(rate, rate < 10 ? 1 : 0) + " Hz" }
        var second: PanelLine = [Segment(labels.errors + " " + String(s.errorCount), s.errorCount > 0 ? .warning : .plain)]
        if !s.status.isEmpty { second.append(Segment("  " + s.status, s.errorCount > 0 ? .warning : .dim)) }
        return [[Segment(first)], second]
    }

    var gnssLines: [PanelLine] {
        guard let g = state.gnss else { return [[Segment(labels.gnss + ": " + labels.noGNSS, .dim)]] }
        let staleStyle: Style = g.stale ? .warning : .plain
        var head: PanelLine = [Segment(labels.gnss + " ", .bold), Segment(g.fixMode.isEmpty ? "-" : g.fixMode, staleStyle)]
        if g.stale { head.append(Segment("  " + labels.stale, .warning)) }
        if !g.connection.isEmpty { head.append(Segment("  " + g.connection, .dim)) }
        var lines = [head]
        if let lat = g.latitude, let lon = g.longitude, lat.isFinite, lon.isFinite {
            var position: PanelLine = [Segment(coordinate(lat, "N", "S") + " " + coordinate(lon, "E", "W"), g.stale ? .dim : .plain)]
            if !g.place.isEmpty { position.append(Segment("  " + g.place, .dim)) }
            lines.append(position)
        } else {
            lines.append([Segment(labels.noPosition, .dim)])
        }
        var motion = labels.speed + " "
        if let v = g.speed, v.isFinite {
            motion += fixed(state.speedUnit.convert(metresPerSecond: v), 1) + " " + state.speedUnit.rawValue
        } else {
            motion += "-"
        }
        if let c = g.course, c.isFinite { motion += "  " + labels.course + " " + NumberFormat.heading(c, decimals: 0) + glyphs.degree }
        lines.append([Segment(motion, g.stale ? .dim : .plain)])
        var quality = labels.error + " "
        quality += g.horizontalError.map { $0.isFinite ? glyphs.plusMinus + fixed($0, 1) + " m" : "-" } ?? "-"
        if let age = g.ageSeconds, age.isFinite { quality += "  " + labels.age + " " + fixed(age, 1) + " s" }
        lines.append([Segment(quality, staleStyle)])
        return lines
    }

    /// "33.86880°S": five decimals (about a metre).
    private func coordinate(_ value: Double, _ positive: String, _ negative: String) -> String {
        fixed(abs(value), 5) + glyphs.degree + (value >= 0 ? positive : negative)
    }

    // MARK: Reports and status

    /// The title and the newest report lines that fit in `rows` (title included).
    func reportLines(rows: Int) -> [PanelLine] {
        guard rows > 0 else { return [] }
        var lines: [PanelLine] = [[Segment(labels.reports, .bold)]]
        let room = rows - 1
        if state.reports.isEmpty {
            if room > 0 { lines.append([Segment(labels.noReports, .dim)]) }
        } else if room > 0 {
            for report in state.reports.suffix(room) { lines.append([Segment(report)]) }
        }
        return lines
    }

    /// The status line: the notice (if any) then the keys, shortened to fit.
    func statusLine(width: Int) -> PanelLine {
        var line: PanelLine = []
        var room = width
        if !state.notice.isEmpty {
            line.append(Segment(state.notice + "  ", .warning))
            room -= displayWidth(state.notice) + 2
        }
        let keys = [labels.statusKeys, labels.statusKeysShort].first { displayWidth($0) <= room } ?? labels.statusKeysTiny
        line.append(Segment(keys, .dim))
        return line
    }
}
