// Sensor benchmarks: raw register bytes → µT for every supported chip, and one full readIfReady
// through the emulated bus (status read, data read, decode) for the QMC5883L.
import Platform
import Linear
import Sensors
import Simulation

/// 64 fixed-seed register patterns of `length` bytes, with every byte in `range` (to keep decodes in range).
private func sensorBenchPatterns(length: Int, seed: UInt64, byte range: ClosedRange<UInt8> = 0...255,
                                 fixing: (inout [UInt8]) -> Void = { _ in }) -> [[UInt8]] {
    var rng = SplitMix64(seed: seed)
    return (0..<64).map { _ in
        var bytes = (0..<length).map { _ in
            range.lowerBound &+ UInt8(truncatingIfNeeded: rng.next() % (UInt64(range.upperBound - range.lowerBound) + 1))
        }
        fixing(&bytes)
        return bytes
    }
}

/// Runs `decode` over the 64 patterns `n` times (cycling), summing every component so none is skipped.
private func benchDecode<Pattern>(_ name: String, _ patterns: [Pattern], _ decode: (Pattern) -> Vector3?) {
    bench(name, iterations: 1_000_000) { n in
        var sum = 0.0
        for i in 0..<n {
            if let v = decode(patterns[i & 63]) { sum += v.x + v.y + v.z }
        }
        blackHole(sum)
    }
}

func runSensorBenchmarks() {
    benchDecode("sensor.decode.qmc5883l", sensorBenchPatterns(length: 6, seed: 1)) {
        QMC5883L.decode($0, range: .gauss8)
    }
    // HMC5883L: keep each big-endian word inside ±2047 (MSB 0x00–0x07 or 0xF8–0xFF), never −4096.
    benchDecode("sensor.decode.hmc5883l", sensorBenchPatterns(length: 6, seed: 2) { b in
        for i in stride(from: 0, to: 6, by: 2) { b[i] = b[i] & 0x80 != 0 ? 0xF8 | b[i] : b[i] & 0x07 }
    }) { HMC5883L.decode($0, gain: .gauss1_3) }
    benchDecode("sensor.decode.lis3mdl", sensorBenchPatterns(length: 6, seed: 3, byte: 1...254)) {
        LIS3MDL.decode($0, range: .gauss4)
    }
    benchDecode("sensor.decode.lis2mdl", sensorBenchPatterns(length: 6, seed: 4, byte: 1...254)) {
        LIS2MDL.decode($0)
    }
    // MMC5983MA: a SET and a RESET measurement (7 bytes each) → field with the bridge offset removed.
    let mmcPairs = sensorBenchPatterns(length: 14, seed: 5, byte: 1...254).map { bytes in
        (Array(bytes[0..<7]), Array(bytes[7..<14]))
    }
    benchDecode("sensor.decode.mmc5983ma", mmcPairs) { pair in
        MMC5983MA.decode(set: pair.0, reset: pair.1)?.field
    }
    // BMM150: X/Y/Z/RHALL with flags, through the trim compensation; RHALL kept near the trim's xyz1.
    let trim = BMM150Emulator.typicalTrim
    benchDecode("sensor.decode.bmm150", sensorBenchPatterns(length: 8, seed: 6) { b in
        b[1] = b[1] & 0x3F          // X within ±2048 counts
        b[3] = b[3] | 0xC0          // Y negative, above −2048
        b[5] = b[5] & 0x3F          // Z positive
        b[6] = b[6] | 0x01          // DRDY
        b[7] = 0x6A                 // RHALL ≈ 6800
    }) { BMM150.decode($0, trim: trim) }
    benchDecode("sensor.decode.ak09916", sensorBenchPatterns(length: 8, seed: 7) { b in b[7] = 0 }) {
        AK09916.decode($0)
    }

    // A full read through the emulated bus: the clock advances one output period per iteration.
    let clock = ManualClock()
    let physics = PhysicsSource(now: { clock.now() },
                                magneticField: { t in Vector3(21 + t.truncatingRemainder(dividingBy: 1), -8, 44) })
    let bus = EmulatedI2CBus(busNumber: 1)
    bus.recordsTrace = false
    bus.attach(QMC5883LEmulator(physics: physics), at: QMC5883L.defaultAddress)
    guard let chip = try? QMC5883L(bus: bus) else {
        reportFigure("sensor.read.qmc5883l", extra: [("ok", "false")])
        return
    }
    bench("sensor.read.qmc5883l", iterations: 200_000) { n in
        var count = 0
        for _ in 0..<n {
            clock.advance(by: 0.005)
            if let field = try? chip.readIfReady() { count &+= field.x > 0 ? 1 : 0 }
        }
        blackHole(count)
    }
}
