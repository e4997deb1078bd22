import Platform
import Foundation
import Linear
import Sensors
import Simulation
import Testing

/// Every fault for several chips: each test drives a real driver against its register emulator on a
/// manual clock, injects the fault, and checks what the reader reports and delivers.
@Suite("MagnetometerReader: faults, pacing, timestamps")
struct ReaderFaultTests {
    static let chips: [ChipKind] = [.qmc5883l, .hmc5883l, .lis3mdl, .lis2mdl]

    /// No sample is ever NaN, and timestamps only move forward.
    func checkSane(_ samples: [MagnetometerSample]) {
        for s in samples { #expect(s.field.isFinite && s.monotonic.isFinite && s.wall.isFinite) }
        for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.monotonic > a.monotonic) }
    }

    @Test("a NAK burst (errno 121) is retried with backoff, then reading carries on", arguments: chips)
    func nakBurst(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        _ = bench.run(for: 0.5)
        let before = bench.reader.counters
        bench.bus.faults.nakBurst(count: 4)
        let samples = bench.run(for: 1)
        let counters = bench.reader.counters
        #expect(counters.errors - before.errors == 4)
        #expect(counters.retries - before.retries >= 4)
        #expect(bench.log.statuses.contains(.retrying(attempt: 1, error: .bus(.noAcknowledge(bus: 1, address: bench.address)))))
        #expect(bench.log.statuses.contains { if case .retrying(4, _) = $0 { return true } else { return false } })
        #expect(!bench.log.statuses.contains { if case .notResponding = $0 { return true } else { return false } })
        #expect(bench.reader.status == .ok)
        // Backoff 2 + 4 + 8 + 16 ms: at most a few samples lost in a second.
        let rate = bench.chip.info.outputRate
        #expect(Double(samples.count) >= rate - 6, "\(samples.count) samples at \(rate) Hz")
        #expect(bench.log.messages.contains { $0.contains("retrying") && $0.contains(hexAddress(bench.address)) })
        checkSane(samples)
    }

    @Test("bus timeouts are retried the same way", arguments: chips)
    func timeouts(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        _ = bench.run(for: 0.3)
        bench.bus.faults.timeouts(count: 3)
        let samples = bench.run(for: 0.5)
        #expect(bench.log.statuses.contains { if case .retrying(_, .bus(.timeout)) = $0 { return true } else { return false } })
        #expect(bench.reader.status == .ok)
        #expect(bench.reader.counters.errors == 3)
        #expect(!samples.isEmpty)
        checkSane(samples)
    }

    @Test("a device that vanishes for seconds: 'not responding', then re-initialised within 1 s of its return",
          arguments: chips)
    func vanish(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        _ = bench.run(for: 0.5)
        let gone = bench.clock.now()
        let back = gone + 3
        bench.bus.faults.vanish(address: bench.address, until: back)
        let during = bench.run(for: 1.5)
        #expect(during.isEmpty, "no sample while the device is gone")
        guard case .notResponding(let since) = bench.reader.status else {
            Issue.record("status \(bench.reader.status)")
            return
        }
        #expect(since >= gone && since < gone + 0.01)
        let message = try #require(bench.reader.statusMessage)
        #expect(message.contains("sensor not responding on bus 1 at \(hexAddress(bench.address))"), "\(message)")
        let traceMark = bench.bus.trace.count
        let reconfigurationsBefore = bench.reader.counters.reconfigurations
        let after = bench.run(for: 3)
        let first = try #require(after.first, "reading resumed")
        #expect(first.monotonic >= back)
        #expect(first.monotonic <= back + 1, "resumed \(first.monotonic - back) s after the device returned")
        #expect(bench.reader.counters.reconfigurations == reconfigurationsBefore + 1)
        #expect(bench.writesToChip(since: traceMark) > 0, "configure() wrote to the chip again")
        #expect(bench.reader.status == .ok)
        // The reader kept polling: retries were spaced at most maxRetryDelay apart.
        let attempts = bench.recorder.readTimes.filter { $0 > gone + 0.5 && $0 < back }
        for (a, b) in zip(attempts, attempts.dropFirst()) { #expect(b - a <= 0.25 + 0.002) }
        checkSane(during + after)
    }

    @Test("no data for a few sample periods: 'no data', and a re-initialisation brings it back",
          arguments: TestChips.withDataReady)
    func noData(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        _ = bench.run(for: 1.2)
        let stopped = bench.clock.now()
        TestChips.standby(chip, bench.emulator)   // as a brown-out would leave it
        let after = bench.run(for: 1)
        guard let noData = bench.log.statuses.first(where: { if case .noData = $0 { true } else { false } }),
              case .noData(let since) = noData
        else {
            Issue.record("statuses \(bench.log.statuses)")
            return
        }
        #expect(since <= stopped && since >= stopped - 0.05, "since the last sample before the stop")
        #expect(bench.log.messages.contains { $0.contains("has produced no data") })
        let first = try #require(after.first, "data resumed after re-initialisation")
        let timeout = max(5 / bench.chip.info.outputRate, 0.1)
        #expect(first.monotonic - stopped > timeout * 0.9, "nothing before the timeout")
        #expect(first.monotonic - stopped < timeout + 0.1, "resumed \(first.monotonic - stopped) s after the stop")
        #expect(bench.reader.counters.reconfigurations == 1)
        #expect(bench.reader.status == .ok)
    }

    @Test("a chip that never has data: 'no data' stays, re-initialised at most once a second")
    func neverData() {
        let clock = ManualClock(0)
        let silent = ScriptedMagnetometer { () throws(SensorError) -> Vector3? in nil }
        let reader = MagnetometerReader(
            magnetometer: silent,
            clock: ReaderClock(monotonic: { clock.now() }, wall: { clock.now() }, sleep: { clock.advance(by: $0) }))
        #expect(reader.next(timeout: 3.5) == nil)
        #expect(reader.status == .noData(since: 0))
        #expect((3...4).contains(silent.configureCount), "configured \(silent.configureCount) times")
        #expect(reader.statusMessage?.contains("no data for 3.5 s") == true, "\(reader.statusMessage ?? "")")
    }

    @Test("overflow: the sample is dropped and counted, never clipped into a reading", arguments: chips)
    func overflow(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        _ = bench.run(for: 0.3)
        bench.emulator.forcedField = Vector3(20000, -300, 150)
        let during = bench.run(for: 0.5)
        let dropped = bench.reader.counters.droppedOverflow
        #expect(during.count <= 2, "at most the samples already in the registers")
        #expect(Double(dropped) >= 0.5 * bench.chip.info.outputRate * 0.6, "dropped \(dropped)")
        #expect(during.allSatisfy { $0.field.norm < 2000 })
        bench.emulator.forcedField = nil
        let after = bench.run(for: 0.5)
        #expect(!after.isEmpty)
        #expect(bench.reader.status == .ok)
        checkSane(during + after)
    }

    @Test("a stuck sensor (identical readings for seconds) is flagged, its samples still delivered", arguments: chips)
    func stuck(chip: ChipKind) throws {
        let bench = try ReaderBench(chip, noise: 0)
        let normal = bench.run(for: 1)
        #expect(Set(normal.map(\.field)).count > normal.count / 2, "a turning field gives changing readings")
        #expect(bench.reader.status == .ok)
        let frozen = bench.clock.now()
        bench.emulator.forcedField = Vector3(25, -5, 40)
        let during = bench.run(for: 4)
        guard case .stuck(let since) = bench.reader.status else {
            Issue.record("status \(bench.reader.status)")
            return
        }
        #expect(since >= frozen && since < frozen + 0.2)
        #expect(during.count > 100, "stuck samples are flagged, not dropped")
        #expect(bench.reader.statusMessage?.contains("unchanged") == true)
        bench.emulator.forcedField = nil
        _ = bench.run(for: 0.5)
        #expect(bench.reader.status == .ok)
    }

    @Test("pacing: one poll per sample at the chip's period, on a drift-free grid, every sample delivered", arguments: chips)
    func pacing(chip: ChipKind) throws {
        let bench = try ReaderBench(chip)
        let samples = bench.run(for: 10)
        let rate = bench.chip.info.outputRate
        #expect(abs(Double(samples.count) - 10 * rate) <= 0.01 * 10 * rate + 3, "\(samples.count) samples at \(rate) Hz")
        let period = bench.reader.samplePeriod
        #expect(abs(period - 1 / rate) < 1e-12)
        // Every read costs 0.2–0.4 ms, yet polls keep to a grid of 64ths of the period: a (learned)
        // period after the poll that found the last sample, an eighth of one earlier (the early look
        // every eighth sample), or an eighth of one after an empty poll. Nothing else, so no drift
        // accumulates, and nothing polls at half the period.
        let reads = bench.recorder.readTimes
        var periods: [Double: Int] = [:]
        for (a, b) in zip(reads, reads.dropFirst()) {
            let sixtyFourths = (b - a) / period * 64
            #expect(abs(sixtyFourths - sixtyFourths.rounded()) < 1e-6, "a poll \((b - a) * 1000) ms after the one before, at \(b)")
            // (Half a period: the slow retries while a chip has no data yet, as an HMC5883L's first conversion.)
            #expect([8, 32].contains(sixtyFourths.rounded()) || (56...71).contains(sixtyFourths.rounded()), "\(sixtyFourths)/64 of a period")
            if sixtyFourths.rounded() > 32 { periods[sixtyFourths.rounded(), default: 0] += 1 }
        }
        // A chip at its nominal rate: the period followed stays the nominal one, give or take a 64th.
        let usual = periods.max { $0.value < $1.value }?.key ?? 0
        #expect((63...65).contains(usual), "most polls \(usual)/64 of a period apart: \(periods)")
        // About one poll per sample: the early look every eighth sample finds nothing and is tried again.
        let pollsPerSample = Double(reads.count) / Double(samples.count)
        #expect(pollsPerSample <= 1 + 1.5 / Double(MagnetometerReader.earlyLookEvery), "\(pollsPerSample) polls per sample")
        // On its nominal rate the early looks keep finding nothing, so they come only every 32nd
        // sample after the first second: an empty look is a wake-up of its own.
        let settled = reads.filter { $0 >= reads[0] + 1 }
        let settledSamples = samples.filter { $0.monotonic >= reads[0] + 1 }.count
        let settledPolls = Double(settled.count) / Double(max(1, settledSamples))
        #expect(settledPolls <= 1 + 1.5 / Double(MagnetometerReader.slowestEarlyLookEvery), "\(settledPolls) polls per sample, settled")
        for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.monotonic - a.monotonic < 1.5 / rate) }
        for s in samples { #expect(s.wall - s.monotonic == 1.7e9) }
        checkSane(samples)
    }

    /// A chip whose real rate is off its nominal 100 Hz: a sample is ready from its production
    /// until read, and one not read before the next is produced is lost (overwritten).
    final class OffRateChip {
        let clock: ManualClock
        let period: Double
        var produced = 0
        var read = 0
        var latencies: [Double] = []
        init(clock: ManualClock, rate: Double) { self.clock = clock; period = 1 / rate }
        func next() -> Vector3? {
            let newest = Int((clock.now() / period).rounded(.down))
            guard newest > produced else { return nil }
            produced = newest
            read += 1
            latencies.append(clock.now() - Double(newest) * period)
            return Vector3(20, Double(newest % 7), 40)
        }
    }

    @Test("a chip 4 % faster or slower than its nominal rate: the polls follow it, no sample lost, each read within a quarter period",
          arguments: [96.0, 100, 104])
    func offRateChip(rate: Double) {
        let clock = ManualClock(0.0031)
        let off = OffRateChip(clock: clock, rate: rate)
        let chip = ScriptedMagnetometer { () throws(SensorError) -> Vector3? in off.next() }   // nominal 100 Hz
        var polls = 0
        let reader = MagnetometerReader(
            magnetometer: chip,
            clock: ReaderClock(monotonic: { clock.now() }, wall: { clock.now() }, sleep: { clock.advance(by: $0); polls += 1 }))
        var samples = 0
        while clock.now() < 20 { if reader.next(timeout: 0.05) != nil { samples += 1 } }
        let produced = Int((clock.now() / off.period).rounded(.down))
        #expect(samples >= produced - 2, "\(samples) of \(produced) samples read at \(rate) Hz")
        #expect(off.read == samples)
        // Once the reader has learned the chip's rate (its first seconds), each sample is read soon after it is made.
        let worst = off.latencies.suffix(off.latencies.count / 2).max() ?? 0
        #expect(worst <= reader.samplePeriod / 4, "a sample read \(worst * 1000) ms after it was made")
        #expect(Double(polls) / Double(samples) <= 1.35, "\(polls) waits for \(samples) samples")
    }

    @Test("fields come out in body axes, through the mounting orientation")
    func orientation() throws {
        let chipField = Vector3(10, 20, -30)
        for name in ["x-forward-z-up", "yaw90", "x-up-z-back"] {
            let mounting = try MountingOrientation.named(name)
            let bench = try ReaderBench(.qmc5883l, noise: 0, orientation: mounting, field: { _ in chipField })
            let sample = try #require(bench.reader.next(timeout: 0.1))
            #expect(sample.field.isApproximatelyEqual(to: mounting.toBody(chipField), absoluteTolerance: 0.05), "\(name)")
            #expect(sample.acceleration == nil)
        }
    }

    @Test("never NaN, never a crash: non-finite values are dropped, hard errors become 'not responding'")
    func hostileDriver() {
        let clock = ManualClock(0)
        let time = ReaderClock(monotonic: { clock.now() }, wall: { clock.now() }, sleep: { clock.advance(by: $0) })
        let nan = ScriptedMagnetometer { () throws(SensorError) -> Vector3? in Vector3(.nan, 1, 2) }
        let reader = MagnetometerReader(magnetometer: nan, clock: time)
        #expect(reader.next(timeout: 0.5) == nil)
        #expect(reader.counters.droppedInvalid > 10)
        #expect(reader.counters.samples == 0)

        let denied = ScriptedMagnetometer { () throws(SensorError) -> Vector3? in
            throw .bus(.addressBusy(bus: 1, address: 0x0D))
        }
        let stubborn = MagnetometerReader(magnetometer: denied, clock: time)
        #expect(stubborn.next(timeout: 2) == nil)
        guard case .notResponding = stubborn.status else { Issue.record("\(stubborn.status)"); return }
        #expect(denied.configureCount >= 4, "re-initialisation is tried while it fails")
        #expect(stubborn.counters.errors > 8)
    }

    @Test("a clock that never moves cannot make next(timeout:) spin forever")
    func frozenClock() {
        let reader = MagnetometerReader(
            magnetometer: ScriptedMagnetometer { () throws(SensorError) -> Vector3? in nil },
            clock: ReaderClock(monotonic: { 5 }, wall: { 5 }, sleep: { _ in }))
        #expect(reader.next(timeout: 1) == nil)
    }
}
