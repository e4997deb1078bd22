import Foundation
import Testing
import TestSupport

@Suite("regions: hooks never write into the events")
struct RegionsHooksTests {
    @Test func aHooksOutputGoesToStandardErrorNeverIntoTheCSV() throws {
        // Rings round the simulated walk's start: walking away, it leaves some of them.
        let regions = [4, 5, 6, 7, 8, 10].flatMap { ["--region", "r\($0):-33.8694,151.1990,\($0)"] }
        let r = try runLodestone(["regions", "--simulate", "--duration", "12",
                                  "--on-enter", "echo X-$LODESTONE_REGION", "--on-exit", "echo X-$LODESTONE_REGION"] + regions,
                                 timeout: 40)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "time,region,event,lat_deg,lon_deg,distance_m")
        #expect(!r.stdout.contains("X-"), "a hook's output is in the data stream: \(r.stdout)")
        let events = lines.filter { $0.contains(",enter,") || $0.contains(",exit,") }
        try #require(!events.isEmpty, "the walk crossed no ring, nothing to check: \(r.stdout)")
        #expect(r.stderr.contains("X-r"), "the hooks' output is on stderr: \(r.stderr)")
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 6 })
    }

    @Test func hookOptionsAreCheckedAndDocumented() throws {
        let bad = try runInProcess(["regions", "--simulate", "--hook-jobs", "0", "--region", "a:0,0,10"])
        #expect(bad.status == 64)
        let man = try runInProcess(["help", "--man"])
        for name in ["LODESTONE_REGION", "LODESTONE_EVENT", "LODESTONE_TIME", "LODESTONE_LAT", "LODESTONE_LON",
                     "LODESTONE_DISTANCE_M", "hook\\-timeout", "hook\\-jobs"] {
            #expect(man.stdout.contains(name), "\(name) is not in the man page")
        }
    }
}
