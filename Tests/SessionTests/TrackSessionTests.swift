import Foundation
import Geodesy
import JSON
import Platform
@testable import Session
import Testing
import TestSupport

/// `track` and `where` with the simulated receiver, in simulated time.
@Suite("track and where on a manual clock")
struct TrackSessionTests {
    @Test("JSON lines: one object per fix with distance and total")
    func json() throws {
        let h = try SessionHarness("track-json")
        let request = TrackRequest(source: .simulated, format: .json, count: 3)
        #expect(try TrackSession.run(request, runtime: h.runtime("track")) == .success)
        #expect(h.output.lines.count == 3)
        var previousTotal = -1.0
        for line in h.output.lines {
            let object = try #require(try? JSONValue.parse(line), "not JSON: \(line)")
            let total = try #require(object["total_m"]?.double, "\(line)")
            #expect(total >= previousTotal)
            previousTotal = total
            #expect(object["lat_deg"]?.double != nil && object["lon_deg"]?.double != nil)
        }
        #expect(h.clock.now() < 4, "three fixes at 1 Hz: \(h.clock.now())")
    }

    @Test("CSV: a header, then a row per fix")
    func csv() throws {
        let h = try SessionHarness("track-csv")
        _ = try TrackSession.run(TrackRequest(source: .simulated, format: .csv, count: 3), runtime: h.runtime("track"))
        let lines = h.output.lines
        #expect(lines.first == "time,gnss_mode,lat_deg,lon_deg,alt_m,speed_mps,course_deg,eph_m,fix_distance_m,fix_bearing_deg,fix_direction,total_m,stationary")
        #expect(lines.count == 4)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 13 })
    }

    @Test("Chinese text until SIGTERM")
    func chineseUntilStop() throws {
        let h = try SessionHarness("track-zh")
        h.events.schedule(.stop, at: 5.5)
        let request = TrackRequest(source: .simulated, language: .zh, distanceFilter: 0)
        #expect(try TrackSession.run(request, runtime: h.runtime("track")) == .success)
        #expect(h.output.lines.count >= 5, "\(h.output.text)")
        #expect(h.output.text.contains("总计") || h.output.text.contains("静止") || h.output.text.contains("偏"), "\(h.output.text)")
        #expect(h.diagnostics.text.contains("connected to the simulator"))
    }

    @Test("where: the first fix, as text and as JSON")
    func whereQuery() throws {
        let h = try SessionHarness("where")
        #expect(try WhereQuery(source: .simulated, timeout: 5).run(runtime: h.runtime("where")) == .success)
        #expect(h.output.text.contains("3D"), "\(h.output.text)")
        let j = try SessionHarness("where-json")
        _ = try WhereQuery(source: .simulated, timeout: 5, json: true).run(runtime: j.runtime("where"))
        let object = try JSONValue.parse(j.output.text.trimmingCharacters(in: .newlines))
        #expect(object["fix"]?["lat_deg"]?.double.map { abs($0 + 33.87) < 0.01 } == true, "\(j.output.text)")
    }

    @Test("where: a fix that is never good enough times out with what was seen, exit 69")
    func whereTooPoor() throws {
        let h = try SessionHarness("where-poor")
        #expect(throws: NoFixFailure.self) {
            try WhereQuery(source: .simulated, timeout: 3, maximumHorizontalError: 0.5).run(runtime: h.runtime("where"))
        }
        #expect(h.clock.now() >= 3 && h.clock.now() < 3.2, "gave up at the timeout: \(h.clock.now())")
    }
}
