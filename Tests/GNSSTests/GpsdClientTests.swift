import Foundation
import Glibc
import GNSS
import Platform
import Testing

/// Seconds on CLOCK_MONOTONIC, the clock the client stamps fixes with.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Collects everything a source hands out over several polls.
final class Collector {
    let source: any GNSSSource
    var fixes: [Fix] = []
    var states: [GNSSState] = []
    var last = GNSSUpdate()

    init(_ source: any GNSSSource) { self.source = source }

    func poll() {
        last = source.take(now: monotonicNow())
        fixes += last.fixes.map(\.fix)
        states += last.stateChanges
    }

    func waitFor(timeout: Double = 5, _ condition: (Collector) -> Bool) -> Bool {
        eventually(timeout: timeout) { poll(); return condition(self) }
    }
}

func tpv(_ second: Int, lat: Double, track: Double? = nil, mode: Int = 3) -> String {
    let time = String(format: "2026-03-01T10:00:%02d.000Z", second)
    let trackText = track.map { ",\"track\":\($0)" } ?? ""
    return #"{"class":"TPV","device":"/dev/ttyACM0","mode":\#(mode),"time":"\#(time)","lat":\#(lat),"lon":151.2,"eph":4.5\#(trackText)}"#
}

@Suite("gpsd client (against a fake gpsd)", .serialized)
struct GpsdClientTests {
    @Test func watchesStreamsDeduplicatedFixesAndReportsStates() throws {
        let server = try FakeGpsd()
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(server.port)))
        client.start()
        defer { client.stop() }
        let request = server.acceptClient()
        #expect(request?.contains("?WATCH=") == true)
        #expect(request?.contains("\"json\":true") == true)
        server.send([
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#,
            #"{"class":"TPV","device":"/dev/ttyACM0","mode":1}"#,
        ])
        let seen = Collector(client)
        #expect(seen.waitFor { $0.last.state == .waitingForFix })
        #expect(seen.last.devices == ["/dev/ttyACM0"])
        #expect(seen.last.reportsWithoutFix == 1)
        server.send([
            tpv(1, lat: -33.1), tpv(1, lat: -33.1, track: 10),
            #"{"class":"SKY","satellites":[]}"#,
            tpv(2, lat: -33.2), tpv(2, lat: -33.2, track: 20),
            tpv(3, lat: -33.3, track: 30),
        ])
        #expect(seen.waitFor { $0.fixes.count == 3 })
        #expect(seen.fixes.map(\.lat) == [-33.1, -33.2, -33.3])
        #expect(seen.fixes.map(\.course) == [10, 20, 30])
        #expect(seen.last.state == .connected)
        #expect(seen.states.starts(with: [.connected, .waitingForFix, .connected]))
        // Nothing more arrives: after a few seconds the last fix is stale, never current.
        let latest = try #require(seen.last.latest)
        let later = client.take(now: latest.receivedAt + GNSSUpdate.defaultMaxAge + 1)
        #expect(later.latestIsStale)
        #expect(later.current == nil)
        #expect(client.take(now: latest.receivedAt + 0.1).current != nil)
    }

    @Test func survivesGpsdGoingAwayAndResumesOnItsOwn() throws {
        var server = try FakeGpsd()
        let port = server.port
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(port)))
        client.start()
        defer { client.stop() }
        server.acceptClient()
        server.send([tpv(1, lat: -33.1, track: 1), tpv(2, lat: -33.2, track: 2)])
        let seen = Collector(client)
        #expect(seen.waitFor { $0.fixes.count == 2 })
        // gpsd dies: the pending epoch is flushed, the state says why, and retries begin.
        server.shutdown()
        // (Generous bounds: on a loaded machine the client's thread may wait its turn.)
        #expect(seen.waitFor(timeout: 20) { $0.states.contains(.disconnected(.connectionLost(client.address))) },
                "states seen: \(seen.states)")
        #expect(seen.waitFor(timeout: 20) { $0.last.state == .disconnected(.cannotConnect(client.address)) })
        // gpsd comes back on the same port: the client reconnects by itself (its backoff is at most
        // 2 s; the bound here is generous so a loaded machine does not fail it).
        // The port can be held for a moment by the client's own attempt to reach it: bind again
        // until it is free.
        var rebound: FakeGpsd?
        for _ in 0..<100 where rebound == nil {
            rebound = try? FakeGpsd(port: port)
            if rebound == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        server = try #require(rebound, "port \(port) stayed in use")
        #expect(server.acceptClient(timeout: 10) != nil)
        server.send([tpv(7, lat: -33.7, track: 7), tpv(8, lat: -33.8, track: 8)])
        #expect(seen.waitFor { $0.fixes.count == 4 })
        #expect(seen.fixes.map(\.lat) == [-33.1, -33.2, -33.7, -33.8])
        #expect(seen.last.state == .connected)
    }

    /// The back-off, the fixes' times and their staleness are all on the injected clock: with a
    /// manual clock nothing happens until the test moves it, and no test sleeps to see a retry.
    @Test func retriesBackOffOnTheInjectedClockAndFixesAgeOnIt() throws {
        let port = freeLocalPort()
        let clock = ManualClock(100)
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(port)), time: clock)
        client.start()
        defer { client.stop() }
        // gpsd is absent: each refused attempt pauses until a time on the manual clock, doubling
        // from 0.25 s to the 2 s cap. The client waits there until the clock is moved.
        var retryAt = 100.0
        for gap in [0.25, 0.5, 1, 2, 2] {
            retryAt += gap
            #expect(eventually { clock.waitingUntil == [retryAt] }, "waiting until \(clock.waitingUntil), expected \(retryAt)")
            clock.advance(to: retryAt - 0.001)
            #expect(clock.waitingUntil == [retryAt], "a retry before its time")
            clock.advance(to: retryAt)
        }
        #expect(eventually { clock.waitingUntil == [retryAt + 2] })
        // gpsd comes up: the next attempt (when the clock says) connects, and the fix is stamped
        // with the manual clock's time.
        let server = try FakeGpsd(port: port)
        clock.advance(to: retryAt + 2)
        #expect(server.acceptClient(timeout: 10) != nil)
        server.send([tpv(1, lat: -33.5, track: 90), tpv(2, lat: -33.6, track: 91)])
        var fixes: [ReceivedFix] = []
        #expect(eventually { fixes += client.take(now: clock.now()).fixes; return !fixes.isEmpty })
        #expect(fixes.map(\.fix.course) == [90])
        #expect(fixes.first?.receivedAt == retryAt + 2)
        // The second epoch is held for more TPVs of its time for 0.5 s of the manual clock.
        clock.advance(by: 0.5)
        #expect(eventually { fixes += client.take(now: clock.now()).fixes; return fixes.count == 2 })
        #expect(fixes.last?.receivedAt == retryAt + 2.5)
        #expect(client.take(now: clock.now()).current != nil)
        clock.advance(by: GNSSUpdate.defaultMaxAge + 0.5)
        let later = client.take(now: clock.now())
        #expect(later.latestIsStale)
        #expect(later.current == nil)
        // gpsd drops the client: after a connection the back-off starts again from 0.25 s.
        server.dropClient()
        let dropped = clock.now()
        #expect(eventually { clock.waitingUntil == [dropped + 0.25] }, "waiting until \(clock.waitingUntil)")
    }

    @Test func stopReturnsPromptly() throws {
        let server = try FakeGpsd()
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(server.port)))
        client.start()
        server.acceptClient()
        let t0 = Date()
        client.stop()
        // stop() joins the reader thread, which polls in short slices: it returns, and soon.
        #expect(Date().timeIntervalSince(t0) < 3)
        // The client closes its connection: the server sees end of stream.
        var buffer = [UInt8](repeating: 0, count: 16)
        var p = pollfd(fd: server.client, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 1000) == 1)
        #expect(read(server.client, &buffer, 16) == 0)
    }
}
