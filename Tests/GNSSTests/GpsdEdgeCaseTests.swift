import Foundation
import Glibc
import GNSS
import Platform
import Testing

/// gpsd's edge cases (issue: hostile inputs), each with an accurate state and message.
@Suite("gpsd edge cases (against a fake gpsd)", .serialized)
struct GpsdEdgeCaseTests {
    /// A peer that accepts and closes at once is not gpsd dropping a session: it is said so.
    @Test func aPeerThatClosesAtOnceIsNamedAsSuch() throws {
        let server = try FakeGpsd()
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(server.port)))
        client.start()
        defer { client.stop() }
        #expect(server.acceptClient() != nil)
        server.dropClient()
        let seen = Collector(client)
        #expect(seen.waitFor { $0.states.contains(.disconnected(.closedAtOnce(client.address))) }, "\(seen.states)")
        #expect(!seen.states.contains(.disconnected(.connectionLost(client.address))))
        #expect(GNSSError.closedAtOnce(client.address).message.contains("closed it without sending anything"))
    }

    /// A peer that accepts and never speaks is no gpsd (gpsd greets each client at once with
    /// VERSION): it is not taken as connected, so a command gives up on it as on a refused port.
    @Test func aSilentPeerIsNotGpsd() throws {
        let server = try FakeGpsd()
        let clock = ManualClock(100)
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(server.port)), time: clock)
        client.start()
        defer { client.stop() }
        #expect(server.acceptClient() != nil)
        let seen = Collector(client)
        // Nothing is said while the clock stands still; then the greeting's time runs out.
        #expect(seen.waitFor(timeout: 10) {
            clock.advance(by: 0.5)
            return $0.states.contains(.disconnected(.notGpsd(client.address, silent: true)))
        }, "\(seen.states)")
        #expect(!seen.states.contains(.connected), "\(seen.states)")
        #expect(GNSSError.notGpsd(client.address, silent: true).exitCode == .unavailable)
    }

    /// A peer whose first line is not gpsd's JSON (another service on the port) is no gpsd either.
    @Test func aPeerSpeakingSomethingElseIsNotGpsd() throws {
        let server = try FakeGpsd()
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(server.port)))
        client.start()
        defer { client.stop() }
        #expect(server.acceptClient() != nil)
        server.send(["\u{1B}[2JSSH-2.0-OpenSSH_9.2", #"{"class":"TPV","mode":3,"lat":1,"lon":2}"#])
        let seen = Collector(client)
        #expect(seen.waitFor { $0.states.contains(.disconnected(.notGpsd(client.address, silent: false))) }, "\(seen.states)")
        #expect(!seen.states.contains(.connected), "\(seen.states)")
        #expect(seen.fixes.isEmpty)
        let message = GNSSError.notGpsd(client.address, silent: false).message
        #expect(message.contains("not gpsd") && message.contains("--gpsd HOST:PORT"))
    }

    /// Reports without a position between fixes (a second receiver, a partial epoch) no longer
    /// flip the state between connected and waiting with every line.
    @Test func interleavedReportsWithoutAPositionDoNotFlap() throws {
        let server = try FakeGpsd()
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(server.port)))
        client.start()
        defer { client.stop() }
        server.acceptClient()
        let noFix = #"{"class":"TPV","device":"/dev/ttyUSB1","mode":1}"#
        var lines: [String] = []
        for second in 1...6 { lines += [tpv(second, lat: -33 - Double(second) / 10, track: 10), noFix] }
        server.send(lines)
        let seen = Collector(client)
        #expect(seen.waitFor { $0.fixes.count >= 5 })
        #expect(!seen.states.contains(.waitingForFix), "\(seen.states)")
        #expect(seen.last.state == .connected)
        #expect(seen.last.reportsWithoutFix == 6)
    }

    /// A line longer than any gpsd report (libgps cannot read past it): said so, not taken for the
    /// peer closing at once, and the client reconnects and reads on.
    @Test func anOverLongLineIsSaidAndTheClientReconnects() throws {
        let server = try FakeGpsd()
        let client = GpsdClient(address: GpsdAddress(host: "127.0.0.1", port: Int(server.port)))
        client.start()
        defer { client.stop() }
        server.acceptClient()
        let long = #"{"class":"TPV","mode":3,"lat":-33,"lon":151,"time":"2026-03-01T10:00:00.000Z","x":""#
            + String(repeating: "A", count: 200_000) + #""}"#
        server.send([long])
        let seen = Collector(client)
        #expect(seen.waitFor { $0.states.contains(.disconnected(.lineTooLong(client.address))) }, "\(seen.states)")
        #expect(!seen.states.contains(.disconnected(.closedAtOnce(client.address))))
        #expect(server.acceptClient() != nil, "the client connects again")
        server.send([tpv(1, lat: -33.1, track: 1), tpv(2, lat: -33.2, track: 2)])
        #expect(seen.waitFor { $0.fixes.count >= 1 })
        #expect(seen.fixes.allSatisfy { $0.lat != -33 }, "the over-long line is no fix")
    }
}

/// The merger's view of a stuck receiver clock, on explicit times.
@Suite("epoch merger: a frozen time field")
struct FrozenTimeTests {
    func fix(_ time: Double, lat: Double) -> Fix {
        var f = Fix(mode: .threeD)
        f.time = time
        f.lat = lat
        f.lon = 151
        return f
    }

    @Test func aTimeThatStopsIsFlaggedAndItsEpochHandedOnOnce() {
        var merger = EpochMerger(holdSeconds: 0.5)
        var delivered: [Fix] = []
        // Ten epochs, a second apart; then the time sticks while positions keep coming at 5 Hz.
        for i in 0..<10 { delivered += merger.add(fix(1000 + Double(i), lat: -33 - Double(i) / 100), at: Double(i)) }
        #expect(merger.frozenTime == nil)
        for k in 0..<50 { delivered += merger.add(fix(1010, lat: -34 - Double(k) / 100), at: 10 + Double(k) / 5) }
        #expect(merger.frozenTime == 1010)
        #expect(delivered.filter { $0.time == 1010 }.count == 1, "the stuck epoch once, not merged forever")
        #expect(merger.poll(now: 30) == nil)
        // Time moves again: no longer frozen.
        delivered += merger.add(fix(1011, lat: -35), at: 21)
        #expect(merger.frozenTime == nil)
        #expect(GNSSState.timeFrozen(1010).description.contains("time is stuck at"))
    }

    @Test func anEpochOfSeveralReportsIsNotFrozen() {
        var merger = EpochMerger(holdSeconds: 0.5)
        for k in 0..<6 { _ = merger.add(fix(1000, lat: -33), at: Double(k) * 0.1) }
        #expect(merger.frozenTime == nil)
        #expect(merger.lastPositionArrival == 0.5)
    }
}
