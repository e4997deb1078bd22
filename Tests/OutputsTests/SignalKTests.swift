import Foundation
import JSON
import Outputs
import Testing

@Suite("Signal K deltas and JSON reports")
struct SignalKTests {
    static func full() -> HeadingReport {
        HeadingReport(wall: 1_795_000_000.125, monotonic: 3.5, magneticHeading: 90, compassHeading: 88, deviation: 2,
                      variation: -10, variationSource: "wmm", trueHeading: 80, rateOfTurn: 3, roll: 1, pitch: -2,
                      accuracy: 1.25, fieldStrength: 48.5, flags: ["deviationApplied"],
                      rollAccuracy: 0.75, pitchAccuracy: 0.5)
    }

    @Test("a delta: context, one update with $source, RFC 3339 timestamp, the specification's paths in radians")
    func delta() throws {
        let v = SignalKDelta(source: "lodestone.HC").delta(for: Self.full())
        // Through text and back, as a consumer reads it.
        let parsed = try JSONValue.parse(v.serialized())
        #expect(parsed["context"]?.string == "vessels.self")
        let update = try #require(parsed["updates"]?.array?.first)
        #expect(update["$source"]?.string == "lodestone.HC")
        #expect(update["source"] == nil, "$source or source, not both")
        #expect(update["timestamp"]?.string == "2026-11-18T11:06:40.125Z")
        var values: [String: JSONValue] = [:]
        for item in update["values"]?.array ?? [] { values[item["path"]?.string ?? "?"] = item["value"] }
        let rad = Double.pi / 180
        #expect(abs((values["navigation.headingMagnetic"]?.double ?? 0) - 90 * rad) < 1e-6)
        #expect(abs((values["navigation.headingCompass"]?.double ?? 0) - 88 * rad) < 1e-6)
        #expect(abs((values["navigation.magneticDeviation"]?.double ?? 0) - 2 * rad) < 1e-6)
        #expect(abs((values["navigation.magneticVariation"]?.double ?? 0) + 10 * rad) < 1e-6, "west is negative")
        #expect(abs((values["navigation.headingTrue"]?.double ?? 0) - 80 * rad) < 1e-6)
        #expect(abs((values["navigation.rateOfTurn"]?.double ?? 0) - 3 * rad) < 1e-6, "rad/s")
        let attitude = try #require(values["navigation.attitude"])
        #expect(abs((attitude["roll"]?.double ?? 0) - 1 * rad) < 1e-6)
        #expect(abs((attitude["pitch"]?.double ?? 0) + 2 * rad) < 1e-6)
        #expect(abs((attitude["yaw"]?.double ?? 0) - 80 * rad) < 1e-6)
        #expect(values.count == 7)
    }

    @Test("unknown values are left out, not null: no deviation card, no declination, no tilt")
    func minimal() throws {
        let r = HeadingReport(wall: 1_795_000_000, monotonic: 1, magneticHeading: 359.99999999)
        let paths = SignalKDelta().values(for: r).map(\.path)
        #expect(paths == ["navigation.headingMagnetic"])
        let value = try #require(SignalKDelta().values(for: r).first?.value.double)
        #expect(value >= 0 && value < 2 * Double.pi)
    }

    @Test("JSON heading object: units in the keys, unknowns null with the key present, the fix nested")
    func headingJSON() throws {
        let fix = FixReport(wall: 1_795_000_001, mode: "3d", latitude: -33.87, longitude: 151.21, speed: 2.5)
        let o = try JSONValue.parse(ReportJSON.heading(Self.full(), fix: fix).serialized())
        #expect(o["time"]?.string == "2026-11-18T11:06:40.125Z")
        #expect(o["heading_mag_deg"]?.double == 90)
        #expect(o["heading_true_deg"]?.double == 80)
        #expect(o["heading_compass_deg"]?.double == 88)
        #expect(o["declination_deg"]?.double == -10)
        #expect(o["declination_source"]?.string == "wmm")
        #expect(o["rate_of_turn_dps"]?.double == 3)
        #expect(o["accuracy_deg"]?.double == 1.25)
        #expect(o["roll_accuracy_deg"]?.double == 0.75)
        #expect(o["pitch_accuracy_deg"]?.double == 0.5)
        #expect(o["flags"]?.array == [.string("deviationApplied")])
        #expect(o["fix"]?["lat_deg"]?.double == -33.87)
        #expect(o["fix"]?["gnss_mode"]?.string == "3d")
        let bare = try JSONValue.parse(ReportJSON.heading(HeadingReport(wall: 0, monotonic: 0, magneticHeading: 1)).serialized())
        // Every key is present; what is unknown is null.
        #expect(bare["heading_true_deg"] == .null && bare["fix"] == .null && bare["roll_deg"] == .null && bare["refine"] == .null)
        guard case .object(let full) = o, case .object(let empty) = bare else { Issue.record("not objects"); return }
        #expect(full.map(\.0) == empty.map(\.0), "one kind, one set of keys")
    }
}
