import Foundation
import Testing
import TestSupport

/// `lodestone track` and `lodestone where` with the simulated receiver and with bad arguments
/// (no gpsd needed).
@Suite("track and where (simulator, usage)")
struct TrackCommandTests {
    @Test func trackGivesUpWithExit69WhenGpsdNeverAnswered() throws {
        let refusing = RefusingPort()
        let port = refusing.port
        let result = try runLodestone(["track", "--gpsd", "127.0.0.1:\(port)", "--duration", "1"], timeout: 10)
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot reach gpsd at 127.0.0.1:\(port)"))
    }
}
