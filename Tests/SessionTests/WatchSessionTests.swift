import Foundation
import Platform
@testable import Session
import Terminal
import Testing
import TestSupport

/// Whole `watch` sessions on the simulator, in simulated time: a manual clock that moves only while
/// the session waits, scripted signals, captured output. No process is spawned and nothing sleeps.
@Suite("watch session on a manual clock")
struct WatchSessionTests {
    static let names: Set<String> = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    @Test("piped: 10 plain lines a second until SIGTERM, then exit 0")
    func pipedUntilStop() throws {
        let h = try SessionHarness("watch-piped")
        h.events.schedule(.stop, at: 3)
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none))
        let status = try WatchSession.run(request, runtime: h.runtime("watch"))
        #expect(status == .success)
        let lines = h.output.lines
        // 10 Hz for 3 s of simulated time: one line per frame, none lost, none doubled.
        #expect((29...31).contains(lines.count), "\(lines.count) lines: \(lines.prefix(3))")
        for line in lines {
            #expect(line.range(of: #"^\d{1,3}\.\d° [NESW]{1,3}  true --  ±\d+\.\d°  no declination"#,
                               options: .regularExpression) != nil, "format: \(line)")
            #expect(Self.names.contains(String(line.split(separator: " ")[1])), "\(line)")
        }
        let headings = lines.compactMap(headingValue)
        #expect(headings.count == lines.count)
        #expect(headings.allSatisfy { (0..<360).contains($0) })
        #expect(Set(headings).count > 3, "the simulated board turns")
        #expect(h.clock.now() >= 3 && h.clock.now() < 3.2, "stopped at the signal: \(h.clock.now())")
        #expect(h.diagnostics.text.contains("simulated QMC5883L"), "\(h.diagnostics.text)")
        #expect(h.diagnostics.text.contains("uncalibrated"))
    }

    @Test("--rate sets the line rate")
    func rate() throws {
        let h = try SessionHarness("watch-rate")
        h.events.schedule(.stop, at: 2)
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none), rate: 25)
        _ = try WatchSession.run(request, runtime: h.runtime("watch"))
        #expect((48...51).contains(h.output.lines.count), "\(h.output.lines.count)")
    }

    @Test("--once: exactly one reading, at once without a gyroscope, once the gyro-aided heading has settled with one")
    func once() throws {
        let compassOnly = try SessionHarness("watch-once")
        let plain = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true, accelerometer: .none), gnss: .none),
                                 once: true)
        #expect(try WatchSession.run(plain, runtime: compassOnly.runtime("watch")) == .success)
        #expect(compassOnly.output.lines.count == 1)
        #expect(headingValue(compassOnly.output.text) != nil)
        #expect(compassOnly.clock.now() < 0.5, "the first reading comes with the first samples: \(compassOnly.clock.now()) s")

        // The simulated board's MPU-6050 has a gyroscope: the attitude filter settles first.
        let gyro = try SessionHarness("watch-once-gyro")
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none), once: true)
        #expect(try WatchSession.run(request, runtime: gyro.runtime("watch")) == .success)
        #expect(gyro.output.lines.count == 1)
        #expect(gyro.clock.now() > 0.5 && gyro.clock.now() <= WatchSession.onceTimeout + 0.1, "\(gyro.clock.now()) s")
    }

    @Test("--location gives a true heading with the WMM declination")
    func trueHeadingFromLocation() throws {
        let h = try SessionHarness("watch-location")
        h.events.schedule(.stop, at: 1)
        let settings = HeadingSettings(declinationSource: .location(latitude: -33.87, longitude: 151.21))
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), heading: settings, gnss: .none))
        _ = try WatchSession.run(request, runtime: h.runtime("watch"))
        let line = try #require(h.output.lines.last)
        // Sydney's declination is about +12.8° in 2026.
        let parts = line.components(separatedBy: "declination +")
        let declination = try #require(parts.count == 2 ? Double(parts[1].prefix(4)) : nil, "\(line)")
        #expect(abs(declination - 12.8) < 0.5, "\(line)")
        let magnetic = try #require(headingValue(line))
        let trueText = try #require(line.components(separatedBy: "true ").last?.split(separator: "°").first)
        let trueHeading = try #require(Double(trueText))
        let difference = (trueHeading - magnetic - declination).truncatingRemainder(dividingBy: 360)
        #expect(abs(difference) < 0.2 || abs(abs(difference) - 360) < 0.2, "\(line)")
    }

    @Test("the reader going away (closed pipe) ends the session quietly")
    func outputClosed() throws {
        let h = try SessionHarness("watch-closed")
        h.output.closesAfterWrites = 3
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none))
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(h.output.lines.count == 3)
        #expect(h.clock.now() < 1, "ended at the failed write, not at the deadline: \(h.clock.now())")
    }

    @Test("with the simulated receiver: a declination from the fix, and log rows that carry each new fix's leg")
    func logWithSimulatedGNSS() throws {
        let h = try SessionHarness("watch-log")
        h.events.schedule(.stop, at: 6.5)
        let path = h.path("watch.csv")
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true)),
                                   log: .init(path: path))
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(h.output.lines.last?.contains("(wmm)") == true, "declination from the GNSS fix: \(h.output.lines.last ?? "")")
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        // One log row per shown line: none lost at the end.
        #expect(rows.count - 1 == h.output.lines.count, "\(rows.count - 1) rows for \(h.output.lines.count) lines")
        let header = rows[0].split(separator: ",").map(String.init)
        let lat = try #require(header.firstIndex(of: "lat_deg")), lon = try #require(header.firstIndex(of: "lon_deg"))
        let distance = try #require(header.firstIndex(of: "fix_distance_m"))
        var previous: String?
        var newFixes = 0
        for row in rows.dropFirst() {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells.count == header.count)
            guard !cells[lat].isEmpty else { continue }
            let position = cells[lat] + "," + cells[lon]
            if let previous, position != previous {
                newFixes += 1
                #expect(Double(cells[distance]) != nil, "a new fix without its leg: \(row)")
            } else {
                #expect(cells[distance].isEmpty, "a leg on a row that repeats the fix: \(row)")
            }
            previous = position
        }
        // The simulated receiver gives a fix a second: about six in 6.5 s, the first has no leg.
        #expect((4...6).contains(newFixes), "\(newFixes) new fixes")
    }

    @Test("dashboard: draws the rose, redraws on resize and on l (Chinese), quits on q and restores the terminal")
    func dashboard() throws {
        let h = try SessionHarness("watch-dashboard")
        let terminal = h.attachTerminal(columns: 100, rows: 32)
        terminal.type("l", at: 1.0)
        terminal.type("q", at: 2.0)
        h.events.schedule(.resize, at: 0.5)
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none))
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        let text = h.output.text
        #expect(text.hasPrefix(Screen.enterSequence), "the alternate screen first")
        #expect(text.hasSuffix(Screen.leaveSequence), "and left at the end")
        #expect(terminal.keyInputEnabled && terminal.restored, "key input switched on, then restored")
        #expect(text.contains("QMC5883L (simulated)"))
        #expect(text.contains("q quit"))
        #expect(text.contains("北"), "the l key switched the labels to Chinese")
        #expect(h.clock.now() >= 2 && h.clock.now() < 2.1, "q ended it: \(h.clock.now())")
        // About 20 frames a second for two seconds (the resize and the key add one each).
        let frames = text.components(separatedBy: "\u{1B}[H").count - 1
        #expect((38...46).contains(frames), "\(frames) frames")
    }

    @Test("dashboard: SIGTERM ends it cleanly")
    func dashboardSignal() throws {
        let h = try SessionHarness("watch-dashboard-stop")
        let terminal = h.attachTerminal()
        h.events.schedule(.stop, at: 0.7)
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none))
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(terminal.restored)
        #expect(h.output.text.hasSuffix(Screen.leaveSequence))
        #expect(h.clock.now() < 0.75)
    }

    @Test("--once on a terminal: one dashboard frame, no alternate screen")
    func onceOnTerminal() throws {
        let h = try SessionHarness("watch-once-tty")
        _ = h.attachTerminal(columns: 80, rows: 24)
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none), once: true)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        let text = h.output.text
        #expect(!text.contains(Screen.enterSequence))
        #expect(text.contains("q quit"))
        #expect(text.range(of: #"\d{1,3}\.\d°M"#, options: .regularExpression) != nil, "a heading like 123.4°M:\n\(text)")
        #expect(text.split(separator: "\n").count <= 23)
    }
}

/// The inbox is the one owner of a session's events: reading whether a stop came never swallows a
/// resize, and each event is delivered once.
@Suite("control inbox")
struct ControlInboxTests {
    @Test func stopDoesNotSwallowResize() {
        let clock = ManualClock()
        let events = ScriptedEvents(clock: clock)
        events.schedule([.resize, .stop], at: 1)
        let inbox = ControlInbox(events)
        inbox.wait(seconds: 2)
        #expect(inbox.stopRequested)
        #expect(inbox.stopRequested, "sticky")
        #expect(inbox.takeResize(), "the resize that came with the stop is still there")
        #expect(!inbox.takeResize(), "delivered once")
        #expect(clock.now() == 1, "waiting ends at the event")
    }

    @Test func waitingAdvancesTheManualClockOnly() {
        let clock = ManualClock(5)
        let inbox = ControlInbox(ScriptedEvents(clock: clock))
        inbox.wait(seconds: 0.25)
        inbox.wait(seconds: -1)
        inbox.wait(seconds: .nan)
        inbox.poll()
        #expect(clock.now() == 5.25)
        #expect(!inbox.stopRequested)
        #expect(!inbox.takeResize())
    }

    /// Counts the times the inbox asks its source (each a `sigtimedwait` with the real one).
    final class CountingEvents: ControlEventSource {
        var asks = 0
        var pending: ControlEvents = []
        func wait(seconds: Double) -> ControlEvents {
            asks += 1
            defer { pending = [] }
            return pending
        }
    }

    @Test("refresh asks the source only when no wait or poll took the events since the last refresh")
    func refreshAfterAWaitCostsNothing() {
        let events = CountingEvents()
        let inbox = ControlInbox(events)
        inbox.refresh()
        #expect(events.asks == 1, "nothing took the events yet: one poll")
        inbox.refresh()
        #expect(events.asks == 2, "no wait since the last refresh: another poll")
        inbox.wait(seconds: 0.01)
        #expect(events.asks == 3)
        events.pending = [.stop]
        inbox.refresh()
        #expect(events.asks == 3, "the wait took the events: no poll")
        #expect(!inbox.stopRequested, "the stop came after the wait; the next wait or refresh takes it")
        inbox.refresh()
        #expect(events.asks == 4)
        #expect(inbox.stopRequested)
    }
}
