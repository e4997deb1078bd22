import GNSS
import Navigation
import Testing

@Suite("Waiting for a good fix")
struct FixSearchTests {
    let address = GpsdAddress(host: "127.0.0.1", port: 2947)

    func update(_ fixes: [Fix] = [], state: GNSSState = .connected, changes: [GNSSState] = [],
                devices: [String]? = nil, withoutFix: Int = 0) -> GNSSUpdate {
        GNSSUpdate(fixes: fixes.map { ReceivedFix(fix: $0, receivedAt: 0) }, state: state, stateChanges: changes,
                   devices: devices, reportsWithoutFix: withoutFix)
    }

    func fix(eph: Double?, mode: FixMode = .threeD) -> Fix {
        Fix(time: 1, mode: mode, lat: -33.8694, lon: 151.199, eph: eph)
    }

    @Test func returnsTheFirstFixThatPasses() {
        var search = FixSearch(gate: QualityGate(maximumHorizontalError: 5))
        #expect(search.observe(update([fix(eph: 12), fix(eph: 8)])) == nil)
        let found = search.observe(update([fix(eph: 6), fix(eph: 4.5), fix(eph: 3)]))
        #expect(found?.eph == 4.5)
        #expect(search.bestHorizontalError == 3)
        #expect(search.positionFixes == 5)
    }

    @Test func noGpsd() {
        var search = FixSearch()
        _ = search.observe(update(state: .disconnected(.cannotConnect(address)), changes: [.disconnected(.cannotConnect(address))]))
        let failure = search.failure(afterSeconds: 10)
        #expect(failure == .unreachable(.cannotConnect(address), seconds: 10))
        #expect(failure.message.hasPrefix("no fix within 10 s: cannot reach gpsd at 127.0.0.1:2947: is it running?"))
    }

    @Test func gpsdWithoutReceiverOrWithoutFix() {
        var empty = FixSearch()
        _ = empty.observe(update(state: .waitingForFix, changes: [.connected, .waitingForFix], devices: []))
        #expect(empty.failure(afterSeconds: 5) == .noReceiver(seconds: 5))
        #expect(empty.failure(afterSeconds: 5).message.contains("no GPS receiver"))

        var searching = FixSearch()
        _ = searching.observe(update(state: .waitingForFix, devices: ["/dev/ttyACM0"], withoutFix: 7))
        let failure = searching.failure(afterSeconds: 30)
        #expect(failure == .noFix(seconds: 30, reportsWithoutFix: 7))
        #expect(failure.message.contains("7 reports without a position"))
        #expect(failure.message.contains("clear view of the sky"))
    }

    @Test func fixesTooPoorNamesTheBestErrorSeen() {
        var search = FixSearch(gate: QualityGate(maximumHorizontalError: 2))
        _ = search.observe(update([fix(eph: 13.3), fix(eph: 11.4), fix(eph: nil)]))
        let failure = search.failure(afterSeconds: 5)
        #expect(failure.message == "no fix within 5 s was good enough: 3 fixes seen, the best with a horizontal "
            + "error of 11.4 m (limit --accuracy 2.0 m); move to open sky, wait longer (--timeout), or relax --accuracy")
    }

    @Test func onlyTwoDimensionalFixesWhenThreeAreRequired() {
        var search = FixSearch(gate: QualityGate(minimumMode: .threeD))
        _ = search.observe(update([fix(eph: 3, mode: .twoD)]))
        let message = search.failure(afterSeconds: 5).message
        #expect(message.contains("all 2D where 3D is required"))
        #expect(message.contains("--min-mode 2d"))
    }
}
