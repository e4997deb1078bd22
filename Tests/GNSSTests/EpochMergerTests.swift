import Foundation
import GNSS
import JSON
import Testing

@Suite("Epoch merging")
struct EpochMergerTests {
    func fix(_ time: Double?, lat: Double = -27.2, course: Double? = nil, speed: Double? = nil,
             eph: Double? = nil, mode: FixMode = .threeD) -> Fix {
        Fix(time: time, mode: mode, lat: lat, lon: 153.05, course: course, speed: speed, eph: eph)
    }

    @Test func mergesTheTPVsOfOneEpochKeepingTheTrack() {
        // haicom-305N sends two TPVs per epoch; only the second carries track.
        var merger = EpochMerger()
        #expect(merger.add(fix(100, speed: 9.224, eph: 400.9), at: 0).isEmpty)
        #expect(merger.add(fix(100, course: 133.96, speed: 0.993), at: 0.01).isEmpty)
        let done = merger.add(fix(101, speed: 11.4), at: 1)
        #expect(done.count == 1)
        #expect(done.first?.course == 133.96)
        #expect(done.first?.speed == 0.993)     // the later report wins
        #expect(done.first?.eph == 400.9)       // and the earlier fills what it lacks
        #expect(merger.current?.time == 101)
    }

    @Test func handsOnAnEpochAfterTheHoldTime() {
        var merger = EpochMerger(holdSeconds: 0.5)
        _ = merger.add(fix(100), at: 10)
        #expect(merger.poll(now: 10.3) == nil)
        #expect(merger.poll(now: 10.6)?.time == 100)
        #expect(merger.poll(now: 11) == nil)
    }

    @Test func dropsLateRepeatsOfAnEpochAlreadyHandedOn() {
        var merger = EpochMerger(holdSeconds: 0.5)
        _ = merger.add(fix(100), at: 0)
        #expect(merger.flush()?.time == 100)
        #expect(merger.add(fix(100, course: 10), at: 0.7).isEmpty)
        #expect(merger.flush() == nil)
        // After a reset (a new gpsd session) the same time is new again.
        merger.reset()
        _ = merger.add(fix(100), at: 1)
        #expect(merger.flush()?.time == 100)
    }

    @Test func timeGoingBackwardsStartsANewEpoch() {
        var merger = EpochMerger()
        _ = merger.add(fix(200), at: 0)
        #expect(merger.add(fix(150), at: 0.5).map(\.time) == [200])
        #expect(merger.flush()?.time == 150)
    }

    @Test func ignoresReportsWithoutPositionOrTime() {
        var merger = EpochMerger()
        #expect(merger.add(Fix(time: 5, mode: .noFix), at: 0).isEmpty)
        #expect(merger.add(fix(nil), at: 0).isEmpty)
        #expect(merger.add(fix(5, mode: .noFix), at: 0).isEmpty)
        #expect(merger.flush() == nil)
    }

    /// Replays gpsd's TPVs for each real log: one fix per distinct time with mode ≥ 2, at the
    /// reported positions, with the track of any TPV of the epoch.
    @Test(arguments: [("bt451.log", 12), ("haicom-305N.log", 67), ("nl2008u.log", 9),
                      ("stationary-jitter.log", 30), ("course-reversal.log", 25)])
    func oneFixPerDistinctTimeInRealLogs(log: String, expected: Int) throws {
        var merger = EpochMerger()
        var out: [Fix] = []
        var times: [Double] = []
        var tracks: [Double: Double] = [:]
        var positions: [Double: [Double]] = [:]
        var clock = 0.0
        for line in try chkJSONLines(log) {
            guard case .tpv(let f) = try GpsdReport.parse(line) else { continue }
            clock += 0.01
            out += merger.add(f, at: clock)
            if f.mode >= .twoD, let t = f.time, let lat = f.lat, let lon = f.lon {
                if times.last != t { times.append(t) }
                if let c = f.course { tracks[t] = c }
                positions[t] = [lat, lon]
            }
        }
        if let last = merger.flush() { out.append(last) }
        #expect(Set(times).count == expected)
        #expect(out.count == expected)
        #expect(out.map { $0.time ?? -1 } == times)
        for f in out {
            guard let t = f.time else { continue }
            #expect([f.lat ?? 0, f.lon ?? 0] == positions[t])
            #expect(f.course == tracks[t])
        }
    }
}
