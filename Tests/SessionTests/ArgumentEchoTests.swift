import GNSS
import HeadingLog
import Platform
@testable import Session
import Testing

/// A user's own words (an argument, a field of a batch or log line) are quoted back cut to
/// `argumentExcerptLimit` characters and free of control characters: 100 KB in is not 100 KB out.
@Suite("messages quote long arguments and fields cut")
struct ArgumentEchoTests {
    static let huge = String(repeating: "x", count: 100_000) + "\u{1B}[2J"

    static func check(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(message.count < 400, "\(message.prefix(500))", sourceLocation: sourceLocation)
        #expect(message.contains("xxxxxxxxxx…"), "\(message.prefix(500))", sourceLocation: sourceLocation)
        #expect(!message.contains("\u{1B}"), sourceLocation: sourceLocation)
    }

    @Test("serve's sink URLs")
    func endpoints() {
        for text in [Self.huge, "tcp://" + Self.huge + ":99999", "udp://" + Self.huge + ":0"] {
            do {
                _ = try ServeEndpoint.parse(text, defaultPort: 10110)
                Issue.record("accepted")
            } catch { Self.check(error.message) }
        }
        for text in [Self.huge, "mqtt://" + Self.huge + "/a/#"] {
            do {
                _ = try MQTTEndpoint.parse(text)
                Issue.record("accepted")
            } catch { Self.check(error.message) }
        }
    }

    @Test("a destination, a gpsd address and a log line's fields")
    func otherArguments() {
        do {
            _ = try DestinationLookup.resolve("91," + Self.huge, radius: nil, userPlaces: [])
            Issue.record("accepted")
        } catch let error as any UserFacingError { Self.check(error.message) } catch { Issue.record("\(error)") }
        Self.check(GNSSError.invalidAddress(Self.huge).message)
        Self.check(RowProblem.badTime(Self.huge).description)
        Self.check(RowProblem.badNumber(column: "x", text: Self.huge).description)
    }
}
