import Foundation
import HeadingLog
import Linear
import Platform
import Testing

/// Runs `body` on the bytes of `text`.
func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    Array(text.utf8).withUnsafeBufferPointer(body)
}

@Suite("time text and number parsing")
struct TimeAndNumberTests {
    @Test("time text agrees with Platform.ISO8601 and parses back (fixed seed, 1900–2200)")
    func timeRoundTrip() {
        var rng = SplitMix64(seed: 11)
        var cache = TimeText.DayCache()
        for _ in 0..<20_000 {
            let ms = Int64((rng.nextUnit() * 9.5e12 - 2.2e12).rounded())
            let text = TimeText.string(milliseconds: ms)
            #expect(text == ISO8601.format(Double(ms) / 1000), "\(ms)")
            #expect(withBytes(text) { TimeText.parseMilliseconds($0, cache: &cache) } == ms)
        }
    }

    @Test("calendar edge cases: leap days, century rules, before 1970")
    func calendar() {
        let cases: [(String, Int64)] = [
            ("1970-01-01T00:00:00.000Z", 0),
            ("1969-12-31T23:59:59.999Z", -1),
            ("2000-02-29T12:00:00.500Z", 951_825_600_500),
            ("2024-02-29T00:00:00.000Z", 1_709_164_800_000),
            ("2100-03-01T00:00:00.000Z", 4_107_542_400_000),
        ]
        for (text, ms) in cases {
            #expect(TimeText.string(milliseconds: ms) == text)
            #expect(withBytes(text) { TimeText.parseMilliseconds($0) } == ms)
        }
    }

    @Test("other ISO 8601 forms are accepted; malformed times are not")
    func otherForms() {
        #expect(withBytes("2024-01-01T01:00:00+01:00") { TimeText.parseMilliseconds($0) } == 1_704_067_200_000)
        #expect(withBytes("2024-01-01T00:00:00.25Z") { TimeText.parseMilliseconds($0) } == 1_704_067_200_250)
        for bad in ["", "2024-13-01T00:00:00.000Z", "2024-01-01T25:00:00.000Z", "2024-01-01T00:00:00.0a0Z", "now"] {
            #expect(withBytes(bad) { TimeText.parseMilliseconds($0) } == nil, "\(bad)")
        }
    }

    @Test("numbers parse exactly like Double(String) (fixed seed), including the slow path")
    func numbers() {
        var rng = SplitMix64(seed: 3)
        for i in 0..<50_000 {
            let magnitude = pow(10, Double(i % 12) - 4)
            let value = (rng.nextUnit() - 0.5) * magnitude
            let decimals = i % 10
            let text = i % 7 == 0 ? String(value) : plain(value, decimals: decimals)
            guard !text.contains("e") else { continue }
            #expect(withBytes(text) { NumberParser.parse($0) } == Double(text), "\(text)")
        }
        for text in ["0", "-0.5", "+3", "1.", ".25", "12345678901234567890.5", "0.000000000000000000001", "1e3", "2.5E-2"] {
            #expect(withBytes(text) { NumberParser.parse($0) } == Double(text), "\(text)")
        }
    }

    @Test("only plain decimals are numbers")
    func notNumbers() {
        for text in ["", "-", ".", "nan", "inf", "-inf", "0x1p3", "1,5", "1.2.3", "12x", " 1", "1e", "1e+"] {
            #expect(withBytes(text) { NumberParser.parse($0) } == nil, "\(text)")
        }
    }
}
