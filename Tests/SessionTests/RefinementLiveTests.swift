import Foundation
import HeadingLog
import Linear
import Platform
@testable import Session
import Simulation
import Testing
import TestSupport

/// `--refine` live, in process on a manual clock: `watch --simulate --scenario boat --refine
/// --sim-step-ut 6,-5,3@60` recovers its heading after the step; `log --refine` says its progress on
/// stderr and carries the refinement in the rows' flags; without `--refine` nothing of it shows.
@Suite("--refine live: watch and log on a manual clock")
struct RefinementLiveTests {
    static let step = FieldChange(x: 6, y: -5, z: 3, start: 60)

    static func live(step: Bool, refine: Bool) -> LiveRequest {
        var sensors = SensorSelection(simulate: true)
        sensors.scenario = "boat"
        if step { sensors.fieldChanges = [Self.step] }
        // The simulated receiver: the refinement waits for its first fix (the WMM's field there).
        return LiveRequest(sensors: sensors, heading: HeadingSettings(refine: refine), gnss: .automatic, distanceFilter: 0)
    }

    /// `watch --json` for `seconds` of simulated time: (monotonic, magnetic heading, refine object) per line.
    static func watch(step: Bool, refine: Bool, seconds: Double) throws
        -> (lines: [(t: Double, heading: Double, refine: [String: Any]?)], said: String) {
        let h = try SessionHarness("refine-watch", deadline: seconds + 60)
        h.events.schedule(.stop, at: seconds)
        let request = WatchRequest(live: live(step: step, refine: refine), rate: 2, json: true)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        let lines = try h.output.lines.map { line -> (t: Double, heading: Double, refine: [String: Any]?) in
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let t = try #require(o["monotonic_s"] as? Double), heading = try #require(o["heading_mag_deg"] as? Double)
            return (t, heading, o["refine"] as? [String: Any])
        }
        return (lines, h.diagnostics.text)
    }

    /// The 95th percentile of |a − b| over the lines with `from ≤ t < to`, paired by time.
    static func p95(_ a: [(t: Double, heading: Double, refine: [String: Any]?)],
                    _ b: [(t: Double, heading: Double, refine: [String: Any]?)], from: Double, to: Double) -> Double {
        var byTime: [Double: Double] = [:]
        for line in b { byTime[line.t] = line.heading }
        var e = a.filter { $0.t >= from && $0.t < to }.compactMap { l in byTime[l.t].map { abs(angleDifference(l.heading, $0)) } }
        guard !e.isEmpty else { return .nan }
        e.sort()
        return e[min(e.count - 1, Int((0.95 * Double(e.count)).rounded(.up)) - 1)]
    }

    @Test("watch --simulate --scenario boat --refine --sim-step-ut 6,-5,3@60: the heading recovers after the step")
    func watchRecoversAfterTheStep() throws {
        let seconds = 480.0
        // The same simulated sail without the step is the truth the step is measured against (the
        // simulator is seeded: the runs differ only by the step and the refinement).
        let truth = try Self.watch(step: false, refine: false, seconds: seconds).lines
        let stale = try Self.watch(step: true, refine: false, seconds: seconds).lines
        let (refined, said) = try Self.watch(step: true, refine: true, seconds: seconds)
        let before = Self.p95(refined, truth, from: 10, to: 60)
        let staleLast = Self.p95(stale, truth, from: 360, to: seconds)
        let last = Self.p95(refined, truth, from: 360, to: seconds)
        print("watch boat: p95 against the unchanged sail: before the step \(before)°, last 2 min \(last)° (without --refine \(staleLast)°)\n\(said)")
        #expect(staleLast > 4, "the step turns the heading by several degrees")
        #expect(last <= 1.5)
        // Live, nothing is learned before the first fix; then it converges on the step.
        #expect(refined.first?.refine?["state"] as? String == "waiting")
        let final = try #require(refined.last?.refine)
        print("watch boat: refinement at the end \(final)")
        #expect(final["state"] as? String == "converged")
        let change = try #require(final["change_uT"] as? [Double])
        #expect((Vector3(change[0], change[1], change[2]) - Vector3(6, -5, 3)).norm < 0.7, "\(change)")
        // The step is said as it is noticed; it is then adopted once the recent data have shown it
        // for long enough, or followed by the whole window's fit as that fills with it (a change is
        // judged by the recent fit's honest confidence, the blocks counted as often as they are
        // independent, which a few minutes of sailing may not reach).
        #expect(said.contains("the calibration seems to have changed"), "\(said)")
        #expect(said.contains("adopted a changed calibration") || said.contains("hard-iron offset changed by"), "\(said)")
        // Without --refine the JSON has no refinement.
        #expect(stale.allSatisfy { $0.refine == nil })
    }

    @Test("watch --simulate --scenario boat --refine, nothing changed: the change found is within its stated confidence")
    func anUnchangedSailIsWithinItsConfidence() throws {
        let (lines, said) = try Self.watch(step: false, refine: true, seconds: 240)
        let converged = lines.compactMap { $0.refine }.filter { $0["state"] as? String == "converged" }
        #expect(!converged.isEmpty, "\(said)")
        for r in converged {
            let change = try #require(r["change_uT"] as? [Double]), sigma = try #require(r["sigma_uT"] as? Double)
            let horizontal = (change[0] * change[0] + change[1] * change[1]).squareRoot()
            #expect(horizontal <= 3 * sigma, "horizontal change \(horizontal) µT against 1σ \(sigma) µT")
        }
        // stderr states the vertical confidence too, and the vertical change is within 3σ of it.
        for line in said.split(separator: "\n") where line.contains("µT vertical (1σ)") {
            let words = line.split(separator: " ")
            let z = try #require(line.split(separator: "(").dropFirst().first?.split(separator: ")").first?
                .split(separator: ",").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) })
            let index = try #require(words.firstIndex(of: "vertical"))
            let vertical = try #require(Double(words[index - 2].dropFirst()))
            #expect(abs(z) <= 3 * vertical, "\(line)")
        }
        #expect(said.contains("the profile agrees with the data"), "\(said)")
    }

    @Test("the dashboard shows the refinement's state")
    func dashboardShowsTheRefinement() throws {
        let h = try SessionHarness("refine-dashboard", deadline: 30)
        _ = h.attachTerminal(columns: 100, rows: 40)
        h.events.schedule(.stop, at: 5)
        #expect(try WatchSession.run(WatchRequest(live: Self.live(step: false, refine: true)), runtime: h.runtime("watch")) == .success)
        #expect(h.output.text.contains("refine: collecting"))
        let plain = try SessionHarness("dashboard-plain", deadline: 30)
        _ = plain.attachTerminal(columns: 100, rows: 40)
        plain.events.schedule(.stop, at: 5)
        #expect(try WatchSession.run(WatchRequest(live: Self.live(step: false, refine: false)), runtime: plain.runtime("watch")) == .success)
        #expect(!plain.output.text.contains("refine:"))
    }

    @Test("log --refine: progress on stderr, the refinement in the rows' flags")
    func logCarriesTheRefinement() throws {
        let h = try SessionHarness("refine-log", deadline: 400)
        let path = h.path("boat.csv")
        let request = LogRequest(live: Self.live(step: true, refine: true), file: LogSession.Options(path: path),
                                 rate: 2, duration: 330)
        #expect(try LogRecording.run(request, runtime: h.runtime("log")) == .success)
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(3))")
        let flags = check.rows.map { $0[17].split(separator: "|").map(String.init) }
        // The first row says the state; later rows only each change.
        #expect(flags.first?.contains("refineState=waiting") == true, "\(flags.first ?? [])")
        let changes = flags.enumerated().filter { $0.element.contains { $0.hasPrefix("refine=") } }
        #expect(changes.count >= 3 && changes.count < check.rows.count / 2, "\(changes.count) of \(check.rows.count) rows")
        #expect(flags.contains { $0.contains("refineState=change_suspected") })
        let last = try #require(changes.last?.element.first { $0.hasPrefix("refine=") })
        let numbers = last.dropFirst("refine=".count).split(separator: "/").compactMap { Double($0) }
        #expect(numbers.count == 4, "\(last)")
        if numbers.count == 4 {
            #expect((Vector3(numbers[0], numbers[1], numbers[2]) - Vector3(6, -5, 3)).norm < 0.7, "\(last)")
            // Its stated 1σ counts the half-second blocks only as often as they are independent (the waves'
            // errors last many): wider than the data's white scatter, and it covers the error left.
            let error = Vector3(numbers[0], numbers[1], numbers[2]) - Vector3(6, -5, 3)
            #expect(numbers[3] > 0 && numbers[3] <= 0.6, "its 1σ: \(last)")
            #expect((error.x * error.x + error.y * error.y).squareRoot() <= 3 * numbers[3], "its 1σ: \(last)")
        }
        #expect(flags.last?.contains("refined") == true, "a refined calibration applied on the last rows")
        // Progress on stderr as it happens, and the outcome at the end.
        let said = h.diagnostics.text
        #expect(said.contains("refine: collecting"), "\(said)")
        #expect(said.contains("the calibration seems to have changed"), "\(said)")
        #expect(said.contains("refine: saved the refined offset"), "\(said)")
    }

    @Test("log without --refine: no refinement in the flags, nothing said of it")
    func logWithoutRefine() throws {
        let h = try SessionHarness("log-plain", deadline: 60)
        let path = h.path("boat.csv")
        let request = LogRequest(live: Self.live(step: true, refine: false), file: LogSession.Options(path: path),
                                 rate: 2, duration: 20)
        #expect(try LogRecording.run(request, runtime: h.runtime("log")) == .success)
        let check = LogCheck(path: path)
        #expect(check.rows.count == 40)
        #expect(check.rows.allSatisfy { !$0[17].contains("refine") && !$0[17].contains("calibrationChanged") })
        #expect(!h.diagnostics.text.contains("refine:"))
    }
}
