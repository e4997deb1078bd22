import Foundation
import Testing
import TestSupport

/// `lodestone declination`'s command line in process: one point as text and JSON (the wiring). The --csv
/// batch is tested in process (SessionTests: DeclinationBatchInProcessTests).
@Suite("lodestone declination (the command line, in process)")
struct DeclinationCommandTests {
    @Test func singlePointTextAndJSON() throws {
        let text = try runInProcess(["declination", "--lat", "-33.8694", "--lon", "151.1990", "--year", "2026.0"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Declination"))
        #expect(text.stdout.contains("° E"))
        let json = try runInProcess(["declination", "--lat", "52", "--lon", "0", "--date", "2027-07-02", "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["zone"] as? String) == "normal")
        #expect(abs(((object?["decimal_year"] as? Double) ?? 0) - 2027.5) < 0.01)
    }

}
