import Foundation
import Linear
import Sensors
import Simulation
import Testing

/// Garbage on the bus (issue: hostile inputs): reads of bytes near the positive rail, all 0xFF, and
/// bit flips, through each chip's real driver and register emulator. A read the chip could not have
/// made is dropped and counted, never delivered as a sample.
@Suite("MagnetometerReader: bus garbage")
struct BusGarbageTests {
    static let chips: [ChipKind] = [.qmc5883l, .hmc5883l, .lis3mdl, .lsm9ds1, .lis2mdl, .mmc5983ma, .bmm150, .bno055, .cmps14]

    /// Every delivered sample is one the chip could make.
    func expectPlausible(_ samples: [MagnetometerSample], fullScale: Double, _ chip: ChipKind) {
        for s in samples {
            #expect(s.field.isFinite && s.field.norm <= MagnetometerReader.maximumPlausibleField, "\(chip): \(s.field)")
            let limit = fullScale * MagnetometerReader.fullScaleAllowance
            #expect(abs(s.field.x) <= limit && abs(s.field.y) <= limit && abs(s.field.z) <= limit, "\(chip): \(s.field)")
        }
    }

    func dropped(_ c: ReaderCounters) -> Int { c.droppedImplausible + c.droppedOverflow + c.droppedInvalid + c.errors }

    /// 0x7F in every byte: each two's-complement word 0x7F7F, just short of the rail the saturation
    /// checks look for (the MMC5983MA's offset-binary words read 0xFF… at their rail).
    @Test("words near the rail are dropped and counted", arguments: chips)
    func nearTheRail(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        _ = bench.run(for: 0.5)
        let before = bench.reader.counters
        bench.bus.faults.garbleReads(count: 20, .fill(chip == .mmc5983ma ? 0xFF : 0x7F))
        let during = bench.run(for: 2)
        let after = bench.reader.counters
        expectPlausible(during, fullScale: bench.chip.info.fullScale, chip)
        // A garbled read either fails the driver's own checks (some garble a status byte: no data)
        // or is dropped here; with 20 of them, several are counted.
        #expect(dropped(after) - dropped(before) >= 5, "\(chip): \(after)")
        #expect(after.samples - before.samples == during.count)
        #expect(during.count > 0, "reading carries on after the garbage")
    }

    @Test("bit flips never deliver a field beyond the chip's range", arguments: chips)
    func bitFlips(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        _ = bench.run(for: 0.5)
        bench.bus.faults.garbleReads(count: 50, .bitFlips(seed: 19))
        let during = bench.run(for: 3)
        expectPlausible(during, fullScale: bench.chip.info.fullScale, chip)
        #expect(during.count > 0)
    }

    /// All 0xFF (SDA held high) and all 0x00: about no field at all, or a rail; dropped and counted.
    @Test("all-0xFF and all-0x00 reads are dropped and counted", arguments: chips)
    func allOnesAndZeros(chip: ChipKind) throws {
        for fill: UInt8 in [0xFF, 0x00] {
            let bench = try ReaderBench(chip)
            _ = bench.run(for: 0.5)
            let before = bench.reader.counters
            bench.bus.faults.garbleReads(count: 20, .fill(fill))
            let during = bench.run(for: 2)
            expectPlausible(during, fullScale: bench.chip.info.fullScale, chip)
            #expect(during.allSatisfy { $0.field.norm >= MagnetometerReader.minimumPlausibleField }, "\(chip)")
            // The BMM150's data-ready bit is in its data read: all 0x00 is "no data yet", not a sample.
            if !(fill == 0 && chip == .bmm150) {
                #expect(dropped(bench.reader.counters) - dropped(before) >= 5,
                        "\(chip) 0x\(String(fill, radix: 16)): \(bench.reader.counters)")
            }
            // Reading carries on once the bus is sane again (after the reader's back-off, if it failed).
            #expect(!bench.run(for: 5).isEmpty, "\(chip)")
        }
    }

    @Test func theRuleItself() {
        #expect(MagnetometerReader.isPlausible(Vector3(20, -5, 42), fullScale: 200))
        #expect(!MagnetometerReader.isPlausible(Vector3(272, 272, 272), fullScale: 200))
        #expect(!MagnetometerReader.isPlausible(Vector3(4884, 4884, 4884), fullScale: 4912))   // |B| 8,459 µT
        #expect(MagnetometerReader.isPlausible(Vector3(900, 0, 0), fullScale: 4912))
        #expect(!MagnetometerReader.isPlausible(Vector3(-0.09, -0.09, -0.09), fullScale: 130))   // HMC5883L, all 0xFF
    }
}
