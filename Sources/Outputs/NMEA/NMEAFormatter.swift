import Platform

/// Heading sentences in NMEA 0183 from a `HeadingReport`:
/// - `HDG` magnetic sensor heading, deviation and variation (empty fields when unknown),
/// - `HDM` magnetic heading, `HDT` true heading (only while a variation is known),
/// - `ROT` rate of turn in degrees per minute (only when known; negative: bow to port),
/// - `XDR` pitch and roll as angular transducers (only when the tilt is known).
///
/// ```swift
/// let nmea = NMEAFormatter(talker: .compass)
/// for line in nmea.sentences(for: report) { send(line) }   // "$HCHDG,123.4,,,12.8,E*hh\r\n", …
/// ```
public struct NMEAFormatter: Sendable {
    public var talker: NMEATalker

    public init(talker: NMEATalker = .compass) { self.talker = talker }

    /// Every sentence the report supports, in the order HDG, HDM, HDT, ROT, XDR.
    public func sentences(for r: HeadingReport) -> [String] {
        var out = [hdg(r), hdm(r)]
        if let t = hdt(r) { out.append(t) }
        if let t = rot(r) { out.append(t) }
        if let t = xdr(r) { out.append(t) }
        return out
    }

    /// `$--HDG,heading,dev,E/W,var,E/W`: the sensor's heading before deviation.
    public func hdg(_ r: HeadingReport) -> String {
        let sensor = r.deviation != nil ? (r.compassHeading ?? r.magneticHeading) : r.magneticHeading
        return make("HDG", [heading(sensor)] + signed(r.deviation) + signed(r.variation))
    }

    /// `$--HDM,heading,M`.
    public func hdm(_ r: HeadingReport) -> String { make("HDM", [heading(r.magneticHeading), "M"]) }

    /// `$--HDT,heading,T`, or nil without a true heading.
    public func hdt(_ r: HeadingReport) -> String? {
        r.trueHeading.map { make("HDT", [heading($0), "T"]) }
    }

    /// The largest rate of turn written, degrees per second; a faster one is no measurement.
    public static let maximumRateOfTurn = 1000.0

    /// `$--ROT,degrees per minute,A`, or nil when the rate is unknown (or not a rate at all).
    public func rot(_ r: HeadingReport) -> String? {
        guard let rate = r.rateOfTurn, rate.isFinite, abs(rate) <= Self.maximumRateOfTurn else { return nil }
        return make("ROT", [fixed(rate * 60, 1), "A"])
    }

    /// `$--XDR,A,pitch,D,PITCH,A,roll,D,ROLL`, or nil without tilt (angles beyond ±180° are left out).
    public func xdr(_ r: HeadingReport) -> String? {
        var fields: [String] = []
        if let p = r.pitch, p.isFinite, abs(p) <= 180 { fields += ["A", fixed(p, 1), "D", "PITCH"] }
        if let q = r.roll, q.isFinite, abs(q) <= 180 { fields += ["A", fixed(q, 1), "D", "ROLL"] }
        return fields.isEmpty ? nil : make("XDR", fields)
    }

    private func make(_ type: String, _ fields: [String]) -> String {
        NMEASentence.make(talker: talker.text, type: type, fields: fields)
    }

    /// A heading to a tenth of a degree in [0, 360): 359.96 is "0.0", never "360.0"; empty when not finite.
    private func heading(_ degrees: Double) -> String {
        guard degrees.isFinite else { return "" }
        let tenths = (wrapDegrees(degrees) * 10).rounded()
        return fixed(tenths >= 3600 ? 0 : tenths / 10, 1)
    }

    /// An east-positive angle (within ±180°) as magnitude and E/W, or two empty fields.
    private func signed(_ degrees: Double?) -> [String] {
        guard let d = degrees, d.isFinite, abs(d) <= 180 else { return ["", ""] }
        return [fixed(abs(d), 1), d < 0 && fixed(abs(d), 1) != "0.0" ? "W" : "E"]
    }
}
