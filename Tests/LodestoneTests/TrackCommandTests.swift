import Foundation
import Testing
import TestSupport

/// `lodestone track` and `lodestone where` with the simulated receiver and with bad arguments
/// (no gpsd needed).
@Suite("track and where (simulator, usage)")
struct TrackCommandTests {
    @Test func jsonLinesFromTheSimulator() throws {
        let result = try runLodestone(["track", "--simulate", "--format", "json", "--count", "2"], timeout: 15)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let first = try #require(objects.first ?? nil), second = try #require(objects.last ?? nil)
        for key in ["time", "lat", "lon", "distance_m", "bearing_deg", "bearing", "total_m", "speed_mps", "course_deg"] {
            #expect(first.keys.contains(key) && second.keys.contains(key), "missing \(key)")
        }
        #expect(first["distance_m"] is NSNull)
        let lat = try #require(second["lat"] as? Double), lon = try #require(second["lon"] as? Double)
        #expect(abs(lat + 33.8694) < 0.01 && abs(lon - 151.1990) < 0.01)
        #expect(second["distance_m"] as? Double != nil)
        #expect((second["time"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func csvFromTheSimulator() throws {
        let result = try runLodestone(["track", "--simulate", "--format", "csv", "--count", "3"], timeout: 15)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "time,lat,lon,distance_m,bearing_deg,bearing,total_m,speed_mps,course_deg,stationary,eph_m,mode")
        #expect(lines[1].split(separator: ",", omittingEmptySubsequences: false)[3] == "")   // no distance on the first row
    }

    @Test func chineseTextAndACleanStopOnSIGTERM() throws {
        let result = try runLodestone(["track", "--simulate", "--lang", "zh"], timeout: 15, signalAfter: 1.5)
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").first?.hasSuffix("起点") == true)
        #expect(result.stderr.contains("connected to the simulator"))
    }

    @Test func trackGivesUpWithExit69WhenGpsdNeverAnswered() throws {
        let port = freeTCPPort()
        let result = try runLodestone(["track", "--gpsd", "127.0.0.1:\(port)", "--duration", "1"], timeout: 10)
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot reach gpsd at 127.0.0.1:\(port)"))
    }

    @Test func whereWithTheSimulator() throws {
        let result = try runLodestone(["where", "--simulate"], timeout: 10)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("-33.869"))
        #expect(result.stdout.contains("3D"))
        let strict = try runLodestone(["where", "--simulate", "--accuracy", "0.5", "--timeout", "1.5"], timeout: 10)
        #expect(strict.status == 69)
        #expect(strict.stderr.contains("the best with a horizontal error of"))
    }

    @Test(arguments: [
        ["track", "--simulate", "--gpsd", "127.0.0.1:2947"],
        ["track", "--gpsd", "bad host;x"],
        ["track", "--format", "xml"],
        ["track", "--style", "binary"],
        ["track", "--lang", "fr"],
        ["track", "--min-mode", "4d"],
        ["track", "--distance-filter", "-1"],
        ["where", "--timeout", "0"],
        ["where", "--accuracy", "nan"],
    ])
    func badArgumentsExit64(arguments: [String]) throws {
        let result = try runLodestone(arguments, timeout: 10)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }
}
