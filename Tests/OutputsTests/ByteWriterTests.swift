import JSON
import Linear
import Outputs
import Testing

/// The messages `serve` sends at every update are written straight into bytes; these must be the
/// bytes the value forms serialize to, for every kind of value (unknowns, non-finite numbers, −0,
/// headings at the wrap, text that needs escaping).
@Suite("Byte writers against the value forms")
struct ByteWriterTests {
    /// A random value from the awkward ones and ordinary ones.
    static func number(_ rng: inout SplitMix64, scale: Double) -> Double? {
        switch rng.next() % 12 {
        case 0: return nil
        case 1: return .nan
        case 2: return rng.next() % 2 == 0 ? .infinity : -.infinity
        case 3: return -0.0
        case 4: return 359.9996 + Double(rng.next() % 8) * 0.0001
        case 5: return -0.04
        default: return (rng.nextUnit() * 2 - 1) * scale
        }
    }

    static func report(_ rng: inout SplitMix64) -> HeadingReport {
        let flags = [[], ["disturbed"], ["tiltHeld", "deviationApplied"], ["we\"ird\\\n\u{1}"]][Int(rng.next() % 4)]
        var r = HeadingReport(wall: 1_795_000_000 + rng.nextUnit() * 1e6, monotonic: rng.nextUnit() * 1e4,
                              magneticHeading: number(&rng, scale: 720) ?? 12.5,
                              compassHeading: number(&rng, scale: 400), deviation: number(&rng, scale: 200),
                              variation: number(&rng, scale: 200), variationSource: rng.next() % 3 == 0 ? nil : "wmm",
                              trueHeading: number(&rng, scale: 400), rateOfTurn: number(&rng, scale: 1200),
                              roll: number(&rng, scale: 200), pitch: number(&rng, scale: 200),
                              accuracy: number(&rng, scale: 10), fieldStrength: number(&rng, scale: 80), flags: flags,
                              rollAccuracy: number(&rng, scale: 5), pitchAccuracy: number(&rng, scale: 5))
        if rng.next() % 5 == 0 { r.wall = .nan }
        if rng.next() % 4 == 0 {
            r.refinement = RefinementSummary(state: "converged", change: [0.4, -0.2, number(&rng, scale: 1) ?? 0], sigma: 0.08,
                                             offset: rng.next() % 2 == 0 ? nil : [1, 2, 3], softIronPercent: number(&rng, scale: 3))
        }
        return r
    }

    static func fix(_ rng: inout SplitMix64) -> FixReport? {
        guard rng.next() % 3 != 0 else { return nil }
        return FixReport(wall: 1_795_000_000 + rng.nextUnit(), mode: "3d", latitude: number(&rng, scale: 90),
                         longitude: number(&rng, scale: 180), altitude: number(&rng, scale: 100), speed: number(&rng, scale: 10),
                         course: number(&rng, scale: 400), horizontalError: number(&rng, scale: 10))
    }

    @Test("heading JSON, Signal K delta and NMEA sentences: the same bytes as the value forms, on 20 000 random reports")
    func sameBytes() {
        var rng = SplitMix64(seed: 30)
        let delta = SignalKDelta(source: "lodestone.\"HC\"")
        let nmea = NMEAFormatter()
        var bytes: [UInt8] = Array("prefix".utf8)
        for _ in 0..<20_000 {
            let r = Self.report(&rng)
            let f = Self.fix(&rng)
            bytes.removeAll(keepingCapacity: true)
            ReportJSON.appendHeading(r, fix: f, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ReportJSON.heading(r, fix: f).serialized())
            bytes.removeAll(keepingCapacity: true)
            delta.append(r, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == delta.delta(for: r).serialized())
            bytes.removeAll(keepingCapacity: true)
            nmea.append(r, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == nmea.sentences(for: r).joined())
        }
    }

    @Test("a heading message: its JSON written once per update however many outputs take it, the same bytes as the value form")
    func headingMessage() {
        var rng = SplitMix64(seed: 24)
        let message = HeadingMessage()
        var first: [UInt8] = [], second: [UInt8] = []
        for k in 0..<5_000 {
            let r = Self.report(&rng)
            let f = Self.fix(&rng)
            message.reset(r, fix: f)
            first.removeAll(keepingCapacity: true)
            second = Array("prefix".utf8)
            message.appendJSON(to: &first)
            message.appendJSON(to: &second)
            #expect(message.jsonWrites == k + 1, "written once for both outputs")
            #expect(String(decoding: first, as: UTF8.self) == ReportJSON.heading(r, fix: f).serialized())
            #expect(String(decoding: second, as: UTF8.self) == "prefix" + ReportJSON.heading(r, fix: f).serialized())
            #expect(ReportJSON.heading(message.report, fix: message.fix).serialized() == ReportJSON.heading(r, fix: f).serialized(),
                    "the report and fix it carries (compared as JSON: the random reports hold NaNs)")
        }
    }

    @Test("writing into a buffer appends: what was there stays")
    func appends() {
        let r = HeadingReport(wall: 1_795_000_000, monotonic: 1, magneticHeading: 359.96)
        var bytes: [UInt8] = Array("x".utf8)
        ReportJSON.appendHeading(r, to: &bytes)
        SignalKDelta().append(r, to: &bytes)
        NMEAFormatter().append(r, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
            == "x" + ReportJSON.heading(r).serialized() + SignalKDelta().delta(for: r).serialized() + NMEAFormatter().sentences(for: r).joined())
        #expect(NMEAFormatter().hdm(r).hasPrefix("$HCHDM,0.0,M*"), "359.96° is 0.0, never 360.0")
    }
}
