import Foundation
import GNSS
import Places
import Geodesy
import Platform
import Testing
@testable import Session
import TestSupport

@Suite("rows stamped by a time to trust")
struct FixTimesTests {
    func fix(_ time: Double?) -> Fix {
        var f = Fix()
        f.time = time
        f.mode = .threeD
        f.lat = -33.87
        f.lon = 151.2
        return f
    }

    @Test func aSynchronisedClockStampsRowsAndAnUntrustedFixTimeIsSaidOnce() {
        let synced = ManualClock(10, wallAtZero: 1_795_000_000, synchronised: true)
        var times = FixTimes(time: synced)
        var said: [String] = []
        // Received 0.4 s ago: the row gets the system's time of arrival, not the receiver's.
        let a = times.observe(fix(1_795_000_009.0), receivedAt: 9.6, say: { said.append($0) })
        #expect(a.stamp == 1_795_000_009.6 && a.problem == nil)
        #expect(said.isEmpty)

        let unsynced = ManualClock(10, wallAtZero: 1_795_000_000, synchronised: false)
        var own = FixTimes(time: unsynced)
        #expect(own.observe(fix(1_795_000_009.0), receivedAt: 9.6, say: { said.append($0) }).stamp == 1_795_000_009.0,
                "without a synchronised clock the receiver's time is the better one")
        // Thirty years back (a week-number rollover or a hostile gpsd): flagged, said once, not used.
        let old = 1_795_000_000 - 30 * 365.25 * 86_400
        for _ in 0..<3 {
            let b = own.observe(fix(old), receivedAt: 10, say: { said.append($0) })
            #expect(b.problem?.flag == "gnssTimeOff")
            #expect(b.stamp == 1_795_000_010)
        }
        #expect(said.count == 1 && said[0].contains("30 years behind"), "\(said)")
    }

    @Test func regionsStampTheirRowsWithTheSynchronisedSystemClock() throws {
        let clock = ManualClock(0, wallAtZero: 1_795_000_000.5, synchronised: true)
        let events = ScriptedEvents(clock: clock, deadline: 600)
        events.schedule(.stop, at: 3)
        let output = CapturedOutput(), diagnostics = CapturedOutput()
        let runtime = Runtime(time: clock, events: events, output: output, diagnostics: diagnostics, terminal: nil,
                              interactiveInput: false, environment: EnvironmentValues([:]), command: "regions")
        let here = try GeoPoint(latitude: -33.8694, longitude: 151.199)
        let request = RegionsRequest(regions: [Region(name: "here", centre: here, radius: 100)], source: .simulated)
        #expect(try RegionsSession.run(request, runtime: runtime) == .success)
        let row = try #require(output.lines.dropFirst().first)
        // The simulated receiver's times are whole seconds; the system clock's here are at .5.
        #expect(row.hasPrefix("2026-11-18T") && row.split(separator: ",")[0].hasSuffix(".500Z"), "\(row)")
    }
}
