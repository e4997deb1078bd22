import Foundation
import Geodesy
import GNSS
import Navigation
import Platform
@testable import Session
import Terminal
import Testing
import TestSupport

/// `watch --once` waits for the true heading when a GNSS source can give it; distances and speeds
/// in the user's units; the dashboard remembers its speed unit.
@Suite("watch --once and the GNSS fix; units")
struct UnitsAndOnceTests {
    @Test("--once with a GNSS source waits for the fix, so the line carries the true heading")
    func onceWaitsForTheFix() throws {
        let h = try SessionHarness("once-fix")
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true)), once: true)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(h.output.lines.count == 1)
        let line = h.output.text
        #expect(!line.contains("true --"), "\(line)")
        #expect(line.contains("(wmm)"), "the declination from the fix: \(line)")
    }

    @Test("--once with gpsd that cannot be reached: the magnetic heading at once, and why there is no true one")
    func onceWithoutGpsd() throws {
        let h = try SessionHarness("once-nogpsd")
        let refusing = RefusingPort()
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true),
                                                     gnss: .gpsd(GpsdAddress(host: "127.0.0.1", port: Int(refusing.port)))),
                                   once: true, onceTimeout: 600)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(h.output.text.contains("true --"))
        #expect(h.diagnostics.text.contains("no true heading"), "\(h.diagnostics.text)")
        #expect(h.clock.now() < 600, "not the whole timeout: \(h.clock.now())")
    }

    @Test("distances, lengths and speeds in each unit system, English and Chinese")
    func formats() {
        #expect(formatDistance(12) == "12 m")
        #expect(formatDistance(1234) == "1.23 km")
        #expect(formatDistance(12, units: .imperial) == "39 ft")
        #expect(formatDistance(3218.688, units: .imperial) == "2.00 mi")
        #expect(formatDistance(150, units: .nautical) == "150 m")
        #expect(formatDistance(3704, units: .nautical) == "2.00 NM")
        #expect(formatDistance(3704, language: .zh, units: .nautical) == "2.00海里")
        #expect(formatSpeed(5, units: .nautical) == "9.7 kn")
        #expect(formatSpeed(10, units: .imperial) == "22.4 mph")
        #expect(formatSpeed(3, language: .zh) == "3.0米/秒")
        #expect(formatLength(3, units: .imperial) == "9.8 ft")
        #expect(formatDistance(.nan, units: .nautical).hasPrefix("?"))
        #expect(UnitSystem(gpsdUnits: "NAUTICAL") == .nautical)
        #expect(UnitSystem(gpsdUnits: "furlongs") == nil)
    }

    @Test("track: --units nautical, and GPSD_UNITS when --units is not given; CSV stays in SI units")
    func trackUnits() throws {
        let h = try SessionHarness("track-units")
        _ = try TrackSession.run(TrackRequest(source: .simulated, distanceFilter: 0, count: 4, units: .nautical),
                                 runtime: h.runtime("track"))
        #expect(h.output.text.contains(" kn"), "\(h.output.text)")
        #expect(!h.output.text.contains("m/s"))
        let env = try SessionHarness("track-env")
        _ = try TrackSession.run(TrackRequest(source: .simulated, distanceFilter: 0, count: 4),
                                 runtime: env.runtime("track", environment: ["GPSD_UNITS": "imperial"]))
        #expect(env.output.text.contains(" ft") && env.output.text.contains(" mph"), "\(env.output.text)")
        let csv = try SessionHarness("track-csv-units")
        _ = try TrackSession.run(TrackRequest(source: .simulated, format: .csv, count: 2, units: .imperial),
                                 runtime: csv.runtime("track"))
        #expect(csv.output.lines.first?.contains("distance_m") == true)
    }

    @Test("where: the error and altitude in feet with imperial units")
    func whereUnits() throws {
        let h = try SessionHarness("where-units")
        _ = try WhereQuery(source: .simulated, timeout: 5, units: .imperial).run(runtime: h.runtime("where"))
        #expect(h.output.text.contains(" ft"), "\(h.output.text)")
        #expect(!h.output.text.contains(" m "), "\(h.output.text)")
    }

    @Test("the dashboard's u choice is remembered for the next run; --units overrides it")
    func rememberedSpeedUnit() throws {
        let h = try SessionHarness("dashboard-units")
        let terminal = h.attachTerminal()
        terminal.type("u", at: 0.5)   // km/h → kn
        terminal.type("q", at: 1.0)
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true)))
        _ = try WatchSession.run(request, runtime: h.runtime("watch"))
        let saved = try String(contentsOfFile: h.path("config/lodestone/dashboard.conf"), encoding: .utf8)
        #expect(saved.contains("speed_unit=kn"), "\(saved)")
        #expect(DashboardPreferences.load(configFolder: h.path("config/lodestone")).speedUnit == .knots)

        // The next run starts in knots without a key.
        let before = h.output.text.count
        let next = h.attachTerminal()
        next.type("q", at: 2.5)
        h.events.schedule(.stop, at: 3)
        _ = try WatchSession.run(request, runtime: h.runtime("watch"))
        let second = String(h.output.text.dropFirst(before))
        #expect(second.contains(" kn"), "the GNSS panel's speed in knots")
        #expect(!second.contains("km/h"))

        // A corrupt preferences file is ignored, never fatal.
        try "speed_unit=warp 9\n\u{0}\u{1}".write(toFile: h.path("config/lodestone/dashboard.conf"), atomically: true, encoding: .utf8)
        #expect(DashboardPreferences.load(configFolder: h.path("config/lodestone")).speedUnit == nil)
    }
}
