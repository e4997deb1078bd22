import Linear
@testable import Platform
import Testing

/// The fast formatter against the reference over `Double.description`'s digits, and read back, on
/// millions of seeded values: every exponent, the ranges the logs and JSON hold, and values a few
/// ulps either side of rounding ties (where a fast path that rounds the binary value would differ).
@Suite struct NumberFormatAgreementTests {
    /// A seeded mix: raw bit patterns (any exponent), everyday magnitudes, and near-ties k.5 / 10^d.
    static func value(_ rng: inout SplitMix64, kind: UInt64) -> Double {
        switch kind % 4 {
        case 0:
            let v = Double(bitPattern: rng.next())
            return v.isFinite ? v : 0
        case 1:
            let scales: [Double] = [1, 1e-3, 1e-6, 10, 1e3, 1e6, 1e12]
            return Double.random(in: -1000...1000, using: &rng) * scales[Int(rng.next() % UInt64(scales.count))]
        case 2:
            // A decimal with up to 9 places and its neighbours: exact halves in the last place and not.
            let places = Int(rng.next() % 10)
            var p = 1.0
            for _ in 0..<places { p *= 10 }
            let k = Double(Int64(rng.next() % 2_000_000_000) - 1_000_000_000)
            var v = (k + 0.5) / p
            for _ in 0..<Int(rng.next() % 4) { v = rng.next() & 1 == 0 ? v.nextUp : v.nextDown }
            return v
        default:
            // Integers and short decimals around the range limits of the fast path.
            let e = Int(rng.next() % 60)
            return Double(Int64(rng.next() % 1_000_000) - 500_000) * pow2(e - 20)
        }
    }

    static func pow2(_ e: Int) -> Double { Double(sign: .plus, exponent: e, significand: 1) }

    /// A million values in four seeded parts (run in parallel), each checked three ways and read back.
    @Test(arguments: [2026, 2027, 2028, 2029] as [UInt64])
    func agreesWithTheReferenceOnMillionsOfValues(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var mismatches: [String] = []
        let count = 250_000
        for i in 0..<count {
            let v = Self.value(&rng, kind: UInt64(i))
            let d = Int(rng.next() % 10)
            let shortest = plain(v)
            if shortest != referencePlain(v) { mismatches.append("plain(\(v)) = \(shortest), reference \(referencePlain(v))") }
            let f = fixed(v, d)
            if f != referenceFixed(v, d) { mismatches.append("fixed(\(v), \(d)) = \(f), reference \(referenceFixed(v, d))") }
            let p = plain(v, decimals: d)
            if p != referencePlain(v, decimals: d) {
                mismatches.append("plain(\(v), decimals: \(d)) = \(p), reference \(referencePlain(v, decimals: d))")
            }
            // Read back: the shortest text is the value; the rounded text is the rounded value.
            if Double(shortest) != v && !(v == 0 && Double(shortest) == 0) { mismatches.append("plain(\(v)) reads back as \(shortest)") }
            let rounded = roundedToDecimals(v, d)
            if Double(p) != rounded { mismatches.append("plain(\(v), decimals: \(d)) = \(p) reads back unlike \(rounded)") }
            if plain(rounded) != p { mismatches.append("plain(roundedToDecimals(\(v), \(d))) = \(plain(rounded)), not \(p)") }
            if mismatches.count > 20 { break }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    @Test func appendingWritesTheSameBytes() {
        var rng = SplitMix64(seed: 5)
        var line: [UInt8] = []
        var expected = ""
        for i in 0..<20_000 {
            let v = Self.value(&rng, kind: UInt64(i))
            let d = Int(rng.next() % 8)
            appendFixed(v, d, to: &line)
            line.append(44)
            appendPlain(v, decimals: d, to: &line)
            line.append(44)
            appendPlain(v, to: &line)
            line.append(10)
            expected += fixed(v, d) + "," + plain(v, decimals: d) + "," + plain(v) + "\n"
        }
        #expect(String(decoding: line, as: UTF8.self) == expected)
        var special: [UInt8] = []
        for v in [Double.nan, .infinity, -.infinity, -0.0, -0.0004] { appendPlain(v, decimals: 3, to: &special); special.append(32) }
        appendFixed(-0.04, 1, to: &special)
        #expect(String(decoding: special, as: UTF8.self) == "nan inf -inf 0 0 0.0")
    }

    /// `appendRounded` writes the rounded digits straight; the bytes are those of the shortest text
    /// of `roundedToDecimals` (as a JSON number), on every kind of value, 15 and 16 digits included.
    @Test func roundedAppendIsTheShortestTextOfTheRoundedValue() {
        var rng = SplitMix64(seed: 9)
        var mismatches: [String] = []
        for i in 0..<400_000 {
            var v = Self.value(&rng, kind: UInt64(i))
            let d = Int(rng.next() % 10)
            // Every fifth: around the 15-digit bound of the direct path.
            if i % 5 == 4 {
                var p = 1.0
                for _ in 0..<d { p *= 10 }
                v = (Double(Int64(rng.next() % 20_000_000) + 990_000_000_000_000) + rng.nextUnit()) / p
                if rng.next() & 1 == 0 { v = -v }
            }
            var bytes: [UInt8] = []
            appendRounded(v, d, to: &bytes)
            var expected: [UInt8] = []
            appendPlain(roundedToDecimals(v, d), to: &expected)
            if bytes != expected {
                mismatches.append("appendRounded(\(v), \(d)) = \(String(decoding: bytes, as: UTF8.self)), expected \(String(decoding: expected, as: UTF8.self))")
                if mismatches.count > 20 { break }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test func tiesRoundAwayFromZeroOnTheShortestDigits() {
        // 2.675 is 2.67499999… in binary; its shortest digits end in 5 and round up, as a reader would.
        #expect(fixed(2.675, 2) == "2.68")
        #expect(fixed(-2.675, 2) == "-2.68")
        #expect(fixed(2.675.nextDown, 2) == "2.67")
        #expect(fixed(0.125, 2) == "0.13")
        #expect(plain(1.0000000000000002) == "1.0000000000000002")
        #expect(plain(0.1 + 0.2) == "0.30000000000000004")
        #expect(plain(5e-324) == referencePlain(5e-324))
    }
}
