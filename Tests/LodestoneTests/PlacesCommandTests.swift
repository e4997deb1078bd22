import Foundation
import Testing
import TestSupport

/// `lodestone places`, `goto` and `regions`'s command lines in process: their wiring and their usage
/// errors. (goto and regions against gpsd's reports for the project's logs: GpsdInProcessTests.)
@Suite("places, goto, regions (the command line, in process)")
struct PlacesCommandTests {
    /// The wiring: places near and find through the command line. What they print is tested in process
    /// (SessionTests: PlacesSessionTests, PlacesInProcessTests).
    @Test func nearAndFindThroughTheBinary() throws {
        let near = try runInProcess(["places", "near", "--lat", "52.52", "--lon", "5.07"])
        #expect(near.status == 0 && near.stdout.hasPrefix("1.73 km ENE of Edam, NL  "), "\(near.stdout)\(near.stderr)")
        let find = try runInProcess(["places", "find", "北京"])
        #expect(find.status == 0 && find.stdout.hasPrefix("北京 → Beijing, Beijing, CN  "), "\(find.stdout)\(find.stderr)")
    }

    /// The option parsers' usage errors, through the dispatcher.
    @Test func usageErrorsExit64WithAHint() throws {
        for (arguments, hint) in [
            (["places", "near", "--lat", "91", "--lon", "0"], "--lat"),
            (["places", "near", "--lat", "1"], "give both --lat and --lon"),
            (["places", "nera"], "did you mean 'near'?"),
            (["places", "add", "x", "--lat", "1", "--lon", "2", "--radius", "0"], "--radius"),
            (["regions", "--region", "a:1,2,-5", "--simulate"], "--region"),
            (["where", "--location", "31.23,121.47"], "--location only applies with --simulate"),
            (["where", "--simulate", "--location", "91,0"], "--location"),
            (["track", "--simulate", "--location", "1"], "--location"),
        ] {
            let folder = try makeTemporaryFolder("places-usage")
            defer { try? FileManager.default.removeItem(at: folder) }
            // "Did you mean" for an action compares it with five words; for a place name it compares
            // the name with all 234,908 places, which the sessions' tests check in process
            // (PlacesSessionTests, PlacesInProcessTests).
            let result = try runInProcess(arguments, environment: ["XDG_CONFIG_HOME": folder.path])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(hint), "\(arguments): \(result.stderr)")
        }
    }
}
