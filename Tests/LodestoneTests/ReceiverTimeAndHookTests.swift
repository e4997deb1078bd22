import Foundation
import Glibc
import Platform
import Testing
import TestSupport

/// The `lodestone` binary against a gpsd stand-in (`StreamingGpsd`): region hooks stay bounded when
/// a fix flaps across a region's edge 200 times a second, SIGTERM ends the command within a second
/// and leaves no hook, and a hook that runs too long is stopped. (A receiver whose time is 30 years
/// off, in process: GpsdInProcessTests. The hook runner itself on a manual clock: HookRunnerTests.)
@Suite("region hooks, end to end", .serialized)
struct ReceiverTimeAndHookTests {
    /// Ends what a failed test left (processes with the test's own marker), by their ids.
    func endLeftovers(_ marker: String) {
        for pid in processes(withCommandLineContaining: marker) { kill(pid, SIGKILL) }
    }

    @Test func aRegionCrossed200TimesASecondWith30SecondHooksNeverRunsMoreThan16AndLeavesNoneAfterExit() throws {
        let marker = "30.0\(getpid() % 1000)91"
        defer { endLeftovers(marker) }
        let start = Clock.wall()
        // Every fix on the other side of a 50 m region's edge: at its centre, then 300 m north.
        let gpsd = try StreamingGpsd(rate: 200) { n in
            StreamingGpsd.tpv(time: start + Double(n) * 0.005, lat: -33.87 + (n % 2 == 0 ? 0 : 0.0027), lon: 151.2)
        }
        defer { gpsd.stop() }
        // The marker reaches the hooks through the environment, so only the hooks' `sleep` has it
        // on its command line (not lodestone's own).
        let regions = try BackgroundLodestone(executable: lodestoneBinaryPath, [
            "regions", "--gpsd", "127.0.0.1:\(gpsd.port)", "--region", "edge:-33.87,151.2,50",
            "--on-enter", "sleep $HOOK_SECONDS", "--on-exit", "sleep $HOOK_SECONDS", "--hook-timeout", "30",
        ], environment: ["HOOK_SECONDS": marker])
        var peak = 0
        let watching = Clock.monotonic()
        while Clock.monotonic() - watching < 4 {
            peak = max(peak, processes(withCommandLineContaining: marker).count)
            usleep(20_000)
        }
        let events = regions.stdout.split(separator: "\n").filter { $0.contains(",enter,") || $0.contains(",exit,") }.count
        #expect(events >= 100, "the region was not crossed often enough to test anything: \(events) events, \(regions.stderr)")
        #expect(peak >= 1, "no hook ran: \(regions.stderr)")
        #expect(peak <= 16, "\(peak) hook processes at once")
        // Exit by SIGTERM: within a second, and no hook left 5 s later.
        kill(regions.pid, SIGTERM)
        let stopped = Clock.monotonic()
        #expect(pollUntil(3) { !regions.isRunning }, "regions did not end on SIGTERM")
        let ended = Clock.monotonic()
        #expect(ended - stopped < 1.5, "took \(ended - stopped) s to end")
        var left = processes(withCommandLineContaining: marker).count
        while left > 0 && Clock.monotonic() - ended < 5 { usleep(50_000); left = processes(withCommandLineContaining: marker).count }
        #expect(left == 0, "\(left) hook processes left 5 s after exit")
        endLeftovers(marker)
        regions.stop()
        #expect(regions.stderr.contains("coalesced"), "the coalescing is counted on stderr: \(regions.stderr)")
    }

    @Test func aSleep1000HookWithATwoSecondTimeoutIsGoneWithinFourSeconds() throws {
        let marker = "1000.\(getpid() % 1000)3"
        defer { endLeftovers(marker) }
        let start = Clock.wall()
        // Outside for the first second, then inside for good: one enter, one hook.
        let gpsd = try StreamingGpsd(rate: 10) { n in
            StreamingGpsd.tpv(time: start + Double(n) * 0.1, lat: -33.87 + (n < 10 ? 0.0027 : 0), lon: 151.2)
        }
        defer { gpsd.stop() }
        let regions = try BackgroundLodestone(executable: lodestoneBinaryPath, [
            "regions", "--gpsd", "127.0.0.1:\(gpsd.port)", "--region", "home:-33.87,151.2,50",
            "--on-enter", "sleep $HOOK_SECONDS", "--hook-timeout", "2",
        ], environment: ["HOOK_SECONDS": marker])
        defer { regions.stop() }
        #expect(pollUntil(20) { !processes(withCommandLineContaining: marker).isEmpty }, "the hook never started: \(regions.stderr)")
        let seen = Clock.monotonic()
        #expect(pollUntil(8) { processes(withCommandLineContaining: marker).isEmpty })
        let gone = Clock.monotonic() - seen
        #expect(gone < 4, "gone \(gone) s after it was first seen")
        #expect(gone > 1.5, "gone after \(gone) s: before its timeout?")
        #expect(regions.isRunning, "regions goes on: \(regions.stderr)")
        #expect(pollUntil(2) { regions.stderr.contains("ran longer than --hook-timeout 2 s") }, "\(regions.stderr)")
    }
}
