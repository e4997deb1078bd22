import Platform

/// Heading sentences in NMEA 0183 from a `HeadingReport`:
/// - `HDG` magnetic sensor heading, deviation and variation (empty fields when unknown),
/// - `HDM` magnetic heading, `HDT` true heading (only while a variation is known),
/// - `ROT` rate of turn in degrees per minute (only when known; negative: bow to port),
/// - `XDR` pitch and roll as angular transducers (only when the tilt is known).
///
/// Each sentence is written straight into a byte buffer (`append(_:to:)`, what `serve` sends at
/// every update, into a buffer it reuses); the `String` forms are made from the same bytes.
///
/// ```swift
/// let nmea = NMEAFormatter(talker: .compass)
/// for line in nmea.sentences(for: report) { send(line) }   // "$HCHDG,123.4,,,12.8,E*hh\r\n", …
/// nmea.append(report, to: &buffer)                          // the same sentences, as bytes
/// ```
public struct NMEAFormatter: Sendable {
    public var talker: NMEATalker { didSet { talkerBytes = Self.bytes(talker) } }
    /// The talker's two characters (an `NMEATalker` is two ASCII letters or digits), taken out once.
    private var talkerBytes: (UInt8, UInt8)

    public init(talker: NMEATalker = .compass) {
        self.talker = talker
        talkerBytes = Self.bytes(talker)
    }

    private static func bytes(_ talker: NMEATalker) -> (UInt8, UInt8) {
        let utf8 = Array(talker.text.utf8)
        return (utf8[0], utf8[1])
    }

    /// Every sentence the report supports, in the order HDG, HDM, HDT, ROT, XDR.
    public func sentences(for r: HeadingReport) -> [String] {
        var out = [hdg(r), hdm(r)]
        if let t = hdt(r) { out.append(t) }
        if let t = rot(r) { out.append(t) }
        if let t = xdr(r) { out.append(t) }
        return out
    }

    /// Appends every sentence the report supports (as `sentences(for:)`, joined) to `out`.
    public func append(_ r: HeadingReport, to out: inout [UInt8]) {
        appendHDG(r, to: &out)
        appendHDM(r, to: &out)
        appendHDT(r, to: &out)
        appendROT(r, to: &out)
        appendXDR(r, to: &out)
    }

    /// `$--HDG,heading,dev,E/W,var,E/W`: the sensor's heading before deviation.
    public func hdg(_ r: HeadingReport) -> String { text { appendHDG(r, to: &$0) } }

    /// `$--HDM,heading,M`.
    public func hdm(_ r: HeadingReport) -> String { text { appendHDM(r, to: &$0) } }

    /// `$--HDT,heading,T`, or nil without a true heading.
    public func hdt(_ r: HeadingReport) -> String? { r.trueHeading == nil ? nil : text { appendHDT(r, to: &$0) } }

    /// The largest rate of turn written, degrees per second; a faster one is no measurement.
    public static let maximumRateOfTurn = 1000.0

    /// `$--ROT,degrees per minute,A`, or nil when the rate is unknown (or not a rate at all).
    public func rot(_ r: HeadingReport) -> String? {
        let t = text { appendROT(r, to: &$0) }
        return t.isEmpty ? nil : t
    }

    /// `$--XDR,A,pitch,D,PITCH,A,roll,D,ROLL`, or nil without tilt (angles beyond ±180° are left out).
    public func xdr(_ r: HeadingReport) -> String? {
        let t = text { appendXDR(r, to: &$0) }
        return t.isEmpty ? nil : t
    }

    // MARK: The sentences as bytes

    private func appendHDG(_ r: HeadingReport, to out: inout [UInt8]) {
        let sensor = r.deviation != nil ? (r.compassHeading ?? r.magneticHeading) : r.magneticHeading
        let start = begin("HDG", &out)
        out.append(comma)
        heading(sensor, &out)
        signed(r.deviation, &out)
        signed(r.variation, &out)
        NMEASentence.finish(from: start, &out)
    }

    private func appendHDM(_ r: HeadingReport, to out: inout [UInt8]) {
        let start = begin("HDM", &out)
        out.append(comma)
        heading(r.magneticHeading, &out)
        out.append(comma)
        out.append(UInt8(ascii: "M"))
        NMEASentence.finish(from: start, &out)
    }

    private func appendHDT(_ r: HeadingReport, to out: inout [UInt8]) {
        guard let trueHeading = r.trueHeading else { return }
        let start = begin("HDT", &out)
        out.append(comma)
        heading(trueHeading, &out)
        out.append(comma)
        out.append(UInt8(ascii: "T"))
        NMEASentence.finish(from: start, &out)
    }

    private func appendROT(_ r: HeadingReport, to out: inout [UInt8]) {
        guard let rate = r.rateOfTurn, rate.isFinite, abs(rate) <= Self.maximumRateOfTurn else { return }
        let start = begin("ROT", &out)
        out.append(comma)
        appendFixed(rate * 60, 1, to: &out)
        out.append(comma)
        out.append(UInt8(ascii: "A"))
        NMEASentence.finish(from: start, &out)
    }

    private func appendXDR(_ r: HeadingReport, to out: inout [UInt8]) {
        let pitch = r.pitch.flatMap { $0.isFinite && abs($0) <= 180 ? $0 : nil }
        let roll = r.roll.flatMap { $0.isFinite && abs($0) <= 180 ? $0 : nil }
        guard pitch != nil || roll != nil else { return }
        let start = begin("XDR", &out)
        func transducer(_ angle: Double?, _ name: StaticString) {
            guard let angle else { return }
            appendStatic(",A,", to: &out)
            appendFixed(angle, 1, to: &out)
            appendStatic(",D,", to: &out)
            appendStatic(name, to: &out)
        }
        transducer(pitch, "PITCH")
        transducer(roll, "ROLL")
        NMEASentence.finish(from: start, &out)
    }

    private var comma: UInt8 { UInt8(ascii: ",") }

    /// `$`, talker and type; returns where the sentence starts (for its checksum).
    private func begin(_ type: StaticString, _ out: inout [UInt8]) -> Int {
        let start = out.count
        out.append(UInt8(ascii: "$"))
        out.append(talkerBytes.0)
        out.append(talkerBytes.1)
        appendStatic(type, to: &out)
        return start
    }

    /// A heading to a tenth of a degree in [0, 360): 359.96 is "0.0", never "360.0"; empty when not finite.
    private func heading(_ degrees: Double, _ out: inout [UInt8]) {
        guard degrees.isFinite else { return }
        let tenths = (wrapDegrees(degrees) * 10).rounded()
        appendFixed(tenths >= 3600 ? 0 : tenths / 10, 1, to: &out)
    }

    /// An east-positive angle (within ±180°) as `,magnitude,E/W`, or two empty fields; a magnitude
    /// that rounds to "0.0" is east.
    private func signed(_ degrees: Double?, _ out: inout [UInt8]) {
        out.append(comma)
        guard let d = degrees, d.isFinite, abs(d) <= 180 else { out.append(comma); return }
        let digits = out.count
        appendFixed(abs(d), 1, to: &out)
        let zero = out.count - digits == 3 && out[digits] == UInt8(ascii: "0") && out[digits + 2] == UInt8(ascii: "0")
        out.append(comma)
        out.append(UInt8(ascii: d < 0 && !zero ? "W" : "E"))
    }

    private func text(_ body: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(NMEASentence.maximumLength + 8)
        body(&out)
        return String(decoding: out, as: UTF8.self)
    }
}
