import Testing
@testable import JSON
import Linear

@Suite("JSON fuzz")
struct JSONFuzzTests {
    static let seeds: [String] = [
        #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2025-01-01T00:00:00.000Z","lat":51.477928,"lon":-0.001545,"alt":45.3,"speed":0.12,"track":271.5}"#,
        #"[1, -2.5e-3, true, false, null, "a\"b\\c\u00e9\ud83e\udded", {"x": [[], {}]}]"#,
        #"{"schema":"lodestone.calibration/1","profiles":[{"offset":[1,2,3],"matrix":[[1,0,0],[0,1,0],[0,0,1]]}]}"#,
    ]

    /// Mutates valid documents (flip, insert, delete, truncate, duplicate) and parses each result:
    /// every input must either parse (and then round-trip) or throw a `JSONError`, never crash.
    @Test func mutatedInputsNeverCrash() {
        var rng = SplitMix64(seed: 20_250_101)
        let interesting: [UInt8] = Array("{}[],:\"\\u0123456789eE+-.tfn \n\t".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xFF]
        var parsed = 0, rejected = 0
        for _ in 0..<20_000 {
            var bytes = Array(Self.seeds[Int(rng.next() % UInt64(Self.seeds.count))].utf8)
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                guard !bytes.isEmpty else { break }
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 5 {
                case 0: bytes[at] = interesting[Int(rng.next() % UInt64(interesting.count))]
                case 1: bytes.insert(interesting[Int(rng.next() % UInt64(interesting.count))], at: at)
                case 2: bytes.remove(at: at)
                case 3: bytes.removeSubrange(at...)
                default:
                    let end = min(bytes.count, at + Int(rng.next() % 8))
                    bytes.insert(contentsOf: bytes[at..<end], at: at)
                }
            }
            do {
                let v = try JSONValue.parse(bytes)
                parsed += 1
                let again = try JSONValue.parse(v.serialized())
                #expect(again == v)
            } catch {
                rejected += 1
                #expect(error.line >= 1 && error.column >= 1)
                #expect(!error.message.isEmpty)
            }
        }
        #expect(rejected > 1000)
        #expect(parsed + rejected == 20_000)
    }

    @Test func randomBytesNeverCrash() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<5_000 {
            let bytes = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? JSONValue.parse(bytes)
        }
    }
}
