import FuzzSupport
import Outputs

/// Any heading report through the NMEA 0183 writer: every sentence is framed, within 82
/// characters, has the right checksum, parses back, and carries the values it was given (to the
/// tenth of a degree it writes), or an empty field for a value it cannot write.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var b = FuzzBytes(data, size)
    var r = HeadingReport(wall: b.number(), monotonic: b.number(), magneticHeading: b.number())
    r.compassHeading = b.optionalNumber()
    r.deviation = b.optionalNumber()
    r.variation = b.optionalNumber()
    r.trueHeading = b.optionalNumber()
    r.rateOfTurn = b.optionalNumber()
    r.roll = b.optionalNumber()
    r.pitch = b.optionalNumber()
    let talkers = ["HC", "TI", "AP", "II", "GP"]
    let talker = (try? NMEATalker(talkers[Int(b.byte()) % talkers.count])) ?? .compass
    let formatter = NMEAFormatter(talker: talker)

    func checkHeading(_ field: String, _ value: Double?, _ what: String) {
        guard let value, value.isFinite else {
            require(field.isEmpty, "\(what): \(field) written for a value that is not finite")
            return
        }
        guard let written = Double(field) else {
            require(false, "\(what): '\(field)' is not a number for \(value)")
            return
        }
        require((0..<360).contains(written), "\(what): \(written) outside [0, 360)")
        var wrapped = value.truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        let difference = abs(written - wrapped)
        require(min(difference, 360 - difference) <= 0.05 + 1e-9 * abs(value), "\(what): \(written) for \(value)")
    }

    /// A value that must have been written, to the tenth.
    func checkNumber(_ field: String, _ value: Double?, scale: Double, limit: Double, _ what: String) {
        guard let value, value.isFinite, abs(value) <= limit else {
            require(false, "\(what): '\(field)' written for \(String(describing: value))")
            return
        }
        guard let written = Double(field) else {
            require(false, "\(what): '\(field)' is not a number for \(value)")
            return
        }
        require(abs(written - value * scale) <= 0.05 + 1e-12 * abs(value * scale), "\(what): \(written) for \(value)")
    }

    /// An east-positive angle as magnitude and E/W, or two empty fields when it cannot be written.
    func checkSigned(_ magnitude: String, _ side: String, _ value: Double?, _ what: String) {
        guard let value, value.isFinite, abs(value) <= 180 else {
            require(magnitude.isEmpty && side.isEmpty, "\(what): '\(magnitude)' written for \(String(describing: value))")
            return
        }
        require(side == "E" || side == "W", "\(what): side '\(side)'")
        checkNumber(magnitude, abs(value), scale: 1, limit: 180, what)
        if magnitude != "0.0" { require((side == "W") == (value < 0), "\(what): \(side) for \(value)") }
    }

    for line in formatter.sentences(for: r) {
        require(line.hasSuffix("\r\n"), "no CR LF at the end")
        let sentence: NMEASentence
        do {
            sentence = try NMEASentence.parse(line)
        } catch {
            require(false, "a sentence that does not parse back (\(error.description)): \(line)")
            return 0
        }
        require(sentence.talker == talker.text, "the wrong talker")
        let f = sentence.fields
        switch sentence.type {
        case "HDG":
            require(f.count == 5, "HDG with \(f.count) fields")
            let sensor = r.deviation != nil ? (r.compassHeading ?? r.magneticHeading) : r.magneticHeading
            checkHeading(f[0], sensor, "HDG heading")
            checkSigned(f[1], f[2], r.deviation, "HDG deviation")
            checkSigned(f[3], f[4], r.variation, "HDG variation")
        case "HDM":
            require(f.count == 2 && f[1] == "M", "HDM framing")
            checkHeading(f[0], r.magneticHeading, "HDM")
        case "HDT":
            require(f.count == 2 && f[1] == "T", "HDT framing")
            checkHeading(f[0], r.trueHeading, "HDT")
        case "ROT":
            require(f.count == 2, "ROT framing")
            checkNumber(f[0], r.rateOfTurn, scale: 60, limit: NMEAFormatter.maximumRateOfTurn, "ROT")
        case "XDR":
            require(f.count == 4 || f.count == 8, "XDR framing")
            let angles = [(r.pitch, "PITCH"), (r.roll, "ROLL")].filter { $0.0.map { $0.isFinite && abs($0) <= 180 } ?? false }
            require(angles.count == f.count / 4, "XDR with \(f.count / 4) angles for \(angles.count)")
            for k in 0..<min(angles.count, f.count / 4) {
                require(f[4 * k] == "A" && f[4 * k + 2] == "D" && f[4 * k + 3] == angles[k].1, "XDR transducer framing")
                checkNumber(f[4 * k + 1], angles[k].0, scale: 1, limit: 180, "XDR \(angles[k].1)")
            }
        default:
            require(false, "an unexpected sentence \(sentence.type)")
        }
    }
    return 0
}
