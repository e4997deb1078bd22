import Foundation
import Linear
import Outputs
import Testing

@Suite("NMEA 0183 heading sentences")
struct NMEATests {
    static let nmea = NMEAFormatter(talker: .compass)

    static func report(_ heading: Double = 123.4) -> HeadingReport {
        HeadingReport(wall: 1_795_000_000, monotonic: 1, magneticHeading: heading)
    }

    @Test("the checksum is the XOR between $ and *, checked against the standard's GGA example")
    func checksumReference() throws {
        // The GGA example from the NMEA 0183 literature, checksum 47.
        let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
        let parsed = try NMEASentence.parse(gga)
        #expect(parsed.talker == "GP" && parsed.type == "GGA" && parsed.fields.count == 14)
        #expect(NMEASentence.make(talker: "HC", type: "HDM", fields: ["123.4", "M"]) == "$HCHDM,123.4,M*2D\r\n")
        #expect(throws: NMEAError.checksum(given: "2C", expected: "2D")) { try NMEASentence.parse("$HCHDM,123.4,M*2C\r\n") }
        #expect(throws: NMEAError.self) { try NMEASentence.parse("HCHDM,123.4,M*2D") }
    }

    @Test("HDG: sensor heading, deviation and variation with E/W; unknown ones stay empty")
    func hdg() throws {
        var r = Self.report(98.3)
        #expect(Self.nmea.hdg(r) == NMEASentence.make(talker: "HC", type: "HDG", fields: ["98.3", "", "", "", ""]))
        r.variation = -12.6
        r.deviation = 2.0
        r.compassHeading = 96.3
        r.magneticHeading = 98.3
        let s = try NMEASentence.parse(Self.nmea.hdg(r))
        // The sensor's own heading (before the card), then deviation east, variation west.
        #expect(s.fields == ["96.3", "2.0", "E", "12.6", "W"])
        r.deviation = -0.04   // rounds to 0.0: never "0.0,W"
        r.compassHeading = 98.34
        #expect(try NMEASentence.parse(Self.nmea.hdg(r)).fields == ["98.3", "0.0", "E", "12.6", "W"])
    }

    @Test("HDM always; HDT only with a true heading; headings in [0, 360) to a tenth")
    func hdmHdt() throws {
        var r = Self.report(359.96)
        #expect(Self.nmea.hdm(r) == NMEASentence.make(talker: "HC", type: "HDM", fields: ["0.0", "M"]))
        #expect(Self.nmea.hdt(r) == nil)
        #expect(Self.nmea.sentences(for: r).count == 2)
        r.trueHeading = 12.84
        #expect(try NMEASentence.parse(#require(Self.nmea.hdt(r))).fields == ["12.8", "T"])
    }

    @Test("ROT in degrees per minute, negative to port; XDR pitch then roll")
    func rotXdr() throws {
        var r = Self.report()
        r.rateOfTurn = -1.5           // deg/s, to port
        r.pitch = 2.54
        r.roll = -1.46
        let all = Self.nmea.sentences(for: r).map { try? NMEASentence.parse($0) }
        #expect(all.compactMap { $0?.type } == ["HDG", "HDM", "ROT", "XDR"])
        #expect(all[2]?.fields == ["-90.0", "A"])
        #expect(all[3]?.fields == ["A", "2.5", "D", "PITCH", "A", "-1.5", "D", "ROLL"])
    }

    @Test("a talker is two upper-case letters or digits, and is used in every sentence")
    func talker() throws {
        let ti = try NMEATalker("TI")
        #expect(NMEAFormatter(talker: ti).hdm(Self.report()).hasPrefix("$TIHDM,"))
        #expect(throws: NMEAError.self) { try NMEATalker("hc") }
        #expect(throws: NMEAError.self) { try NMEATalker("HCX") }
        #expect(throws: NMEAError.self) { try NMEATalker("H*") }
    }

    @Test("random reports (fixed seed): every sentence valid, at most 82 characters, ends in CR LF, no nan")
    func randomReports() throws {
        var rng = SplitMix64(seed: 16)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(rng.next() >> 11) / Double(1 << 53) }
        for _ in 0..<2000 {
            var r = Self.report(uniform(-720, 720))
            if uniform(0, 1) < 0.5 { r.variation = uniform(-180, 180); r.trueHeading = uniform(0, 360) }
            if uniform(0, 1) < 0.5 { r.deviation = uniform(-30, 30); r.compassHeading = uniform(-10, 370) }
            if uniform(0, 1) < 0.7 { r.rateOfTurn = uniform(-500, 500) }
            if uniform(0, 1) < 0.7 { r.pitch = uniform(-90, 90); r.roll = uniform(-180, 180) }
            for line in Self.nmea.sentences(for: r) {
                #expect(line.utf8.count <= NMEASentence.maximumLength, "\(line)")
                #expect(line.hasSuffix("\r\n") && !line.utf8.dropLast(2).contains(13) && !line.contains("nan"))
                let s = try NMEASentence.parse(line)
                if s.type == "HDM" || s.type == "HDT" || s.type == "HDG" {
                    let h = try #require(Double(s.fields[0]))
                    #expect(h >= 0 && h < 360, "\(line)")
                }
            }
        }
    }

    /// Found by the NMEA fuzzer (make fuzz): a heading that is not finite was written as "nan", and
    /// absurd rates, angles and variations made fields hundreds of digits long, past 82 characters.
    @Test("values that cannot be written leave their field empty or their sentence out")
    func nonFiniteAndAbsurdValues() throws {
        var r = Self.report(.nan)
        r.trueHeading = .infinity
        r.variation = 1e300
        r.rateOfTurn = 1e300
        r.pitch = -1e200
        r.roll = .nan
        let sentences = Self.nmea.sentences(for: r)
        #expect(sentences.map { try? NMEASentence.parse($0) }.allSatisfy { $0 != nil })
        #expect(sentences.allSatisfy { !$0.lowercased().contains("nan") && !$0.contains("inf") && $0.utf8.count <= 82 })
        #expect(Self.nmea.hdm(r) == NMEASentence.make(talker: "HC", type: "HDM", fields: ["", "M"]))
        #expect(Self.nmea.hdg(r) == NMEASentence.make(talker: "HC", type: "HDG", fields: ["", "", "", "", ""]))
        #expect(Self.nmea.hdt(r) == NMEASentence.make(talker: "HC", type: "HDT", fields: ["", "T"]))
        #expect(Self.nmea.rot(r) == nil)
        #expect(Self.nmea.xdr(r) == nil)
        r.rateOfTurn = -NMEAFormatter.maximumRateOfTurn
        #expect(Self.nmea.rot(r) == NMEASentence.make(talker: "HC", type: "ROT", fields: ["-60000.0", "A"]))
    }
}
