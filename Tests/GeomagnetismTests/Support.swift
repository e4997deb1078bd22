import Foundation
import Linear
import Testing

/// Test data under Tests/Fixtures/wmm, located relative to this file.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("wmm")

    /// The non-empty lines of a fixture file.
    static func lines(_ name: String) throws -> [String] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}

/// A number read from a fixture, with the count of decimals the file printed.
struct PrintedNumber {
    let value: Double
    let decimals: Int

    init?(_ token: Substring) {
        guard let value = Double(token) else { return nil }
        self.value = value
        if let dot = token.firstIndex(of: ".") {
            decimals = token.distance(from: dot, to: token.endIndex) - 1
        } else {
            decimals = 0
        }
    }

    /// Half a unit in the last printed place: the rounding the file applied.
    var roundingTolerance: Double { 0.5 * pow(10, -Double(decimals)) + 1e-9 }
}
