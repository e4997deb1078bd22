import Foundation
import Heading
@testable import Session
import Testing
import TestSupport

/// `heading --from-file` writes exactly the bytes it wrote before its path was made faster
/// (Tests/Fixtures/replay, recorded with the replay as it was, see SOURCES.md there): the same
/// numbers, flags and columns, with and without the gyro, with a location's WMM declination and
/// with a manual one.
@Suite("heading replay output is byte for byte as recorded")
struct ReplayOutputTests {
    static let broad = packageRoot.appendingPathComponent("Tests/Fixtures/broad")
    static let replay = packageRoot.appendingPathComponent("Tests/Fixtures/replay")

    /// Runs the replay in process and compares its standard output with the recorded file.
    func check(input: String, recorded: String, settings: HeadingSettings) throws {
        let h = try SessionHarness("replay-output")
        #expect(try HeadingReplay(path: input, year: 2026.5, settings: settings).run(runtime: h.runtime("heading")) == .success)
        let expected = try String(contentsOf: Self.replay.appendingPathComponent(recorded), encoding: .utf8)
        let got = h.output.text
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let gotLines = got.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(gotLines.count == expectedLines.count, "\(gotLines.count) lines against \(expectedLines.count) recorded")
        let differing = zip(gotLines, expectedLines).enumerated().filter { $0.element.0 != $0.element.1 }
        for (index, pair) in differing.prefix(3) {
            Issue.record("line \(index + 1): \(pair.0)\n  recorded: \(pair.1)")
        }
        #expect(differing.isEmpty, "\(differing.count) lines differ from \(recorded)")
        #expect(got.utf8.count == expected.utf8.count)
    }

    @Test("gyro-aided, with the WMM's declination at a location")
    func gyroWithLocation() throws {
        try check(input: Self.broad.appendingPathComponent("broad_07_undisturbed_fast_rotation_B_excerpt.csv").path,
                  recorded: "broad_07_gyro_location.csv",
                  settings: HeadingSettings(declinationSource: .location(latitude: -33.87, longitude: 151.21)))
    }

    @Test("without gyroscope columns, with a manual declination")
    func noGyroWithDeclination() throws {
        // The excerpt less its gyro and truth columns (t, x, y, z, ax, ay, az), as `cut -d, -f1-7`.
        let text = try String(contentsOf: Self.broad.appendingPathComponent("broad_30_disturbed_stationary_magnet_C_excerpt.csv"),
                              encoding: .utf8)
        let cut = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).prefix(7).joined(separator: ",")
        }.joined(separator: "\n")
        let h = try SessionHarness("replay-input")
        let path = h.path("broad_30_no_gyro.csv")
        try cut.write(toFile: path, atomically: true, encoding: .utf8)
        try check(input: path, recorded: "broad_30_no_gyro_declination.csv",
                  settings: HeadingSettings(declinationSource: .manual(degrees: 12.5)))
    }
}
