import Linear
import Sensors

/// A register-level HMC5883L: the driver talks to it exactly as to the real chip.
///
/// Implements power-on defaults (15 Hz, gain 1090, single mode), continuous mode at the DO rate,
/// single measurements (6 ms, then idle), averaging (less noise), the positive/negative bias fields,
/// the X, Z, Y big-endian data order, −4096 on ADC overflow, the data-output lock (a partly read sample
/// holds until all six bytes are read), RDY that stays set after reading, a new gain taking effect one
/// measurement late, and the register pointer's auto-increment.
///
/// ```swift
/// bus.attach(HMC5883LEmulator(physics: physics), at: 0x1E)
/// let chip = try HMC5883L(bus: bus)
/// ```
public final class HMC5883LEmulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = HMC5883L.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x0D)
    /// The gain the next measurement uses (a new gain applies one measurement late).
    private var activeGain = HMC5883L.Gain.gauss1_3
    private var readMask: UInt8 = 0
    private var singleDue: Double?
    private let baseNoise: Double

    public var chip: ChipKind { .hmc5883l }

    /// `noise`: RMS µT per axis without averaging (nil: the datasheet's 2 mG noise floor).
    public init(physics: PhysicsSource, noise: Double? = nil, seed: UInt64 = 1) {
        baseNoise = noise ?? 0.2
        super.init(sampler: MagneticSampler(physics: physics, noise: Vector3(baseNoise, baseNoise, baseNoise), seed: seed))
        powerOn()
    }

    private func powerOn() {
        registers = [UInt8](repeating: 0, count: 0x0D)
        registers[Int(R.configA)] = 0x10
        registers[Int(R.configB)] = 0x20
        registers[Int(R.mode)] = HMC5883L.Mode.single
        for (i, byte) in HMC5883L.identity.enumerated() { registers[Int(R.identityA) + i] = byte }
        activeGain = .gauss1_3
        readMask = 0
        singleDue = nil
        applyConfiguration()
    }

    private var configA: UInt8 { registers[Int(R.configA)] }
    private var gain: HMC5883L.Gain { HMC5883L.Gain(rawValue: registers[Int(R.configB)] >> 5) ?? .gauss1_3 }
    private var modeBits: UInt8 { registers[Int(R.mode)] & 0b11 }
    private var locked: Bool { readMask != 0 }

    private func applyConfiguration() {
        let rate = HMC5883L.Rate(rawValue: (configA >> 2) & 0b111) ?? .hz75   // DO = 7 is reserved
        sampler.setRate(rate.hertz)
        let averaged = baseNoise / Double(1 << Int((configA >> 5) & 0b11)).squareRoot()
        sampler.noise = Vector3(averaged, averaged, averaged)
    }

    public func write(register: UInt8, value: UInt8) {
        guard register <= R.mode else { return }   // everything else is read-only
        registers[Int(register)] = value
        // Changing the mode or the measurement configuration releases the lock.
        if register == R.configA || register == R.mode { readMask = 0 }
        if register == R.configA { applyConfiguration() }
        if register == R.mode {
            registers[Int(R.status)] &= ~HMC5883L.Status.ready
            sampler.reset()
            singleDue = modeBits == HMC5883L.Mode.single ? sampler.now + 0.006 : nil
        }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        updateSample()
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var pointer = Int(start)
        for _ in 0..<count {
            out.append(pointer < registers.count ? registers[pointer] : 0)
            if (Int(R.dataXMSB)...Int(R.dataXMSB) + 5).contains(pointer) {
                readMask |= 1 << UInt8(pointer - Int(R.dataXMSB))
                if readMask == 0b11_1111 { readMask = 0 }   // all six read: unlocked
            }
            pointer = pointer >= 12 ? 0 : pointer + 1
        }
        let status = registers[Int(R.status)] & ~HMC5883L.Status.lock
        registers[Int(R.status)] = status | (locked ? HMC5883L.Status.lock : 0)
        return out
    }

    private func updateSample() {
        let field: Vector3
        switch modeBits {
        case HMC5883L.Mode.continuous:
            guard let sample = sampler.sampleIfDue() else { return }
            field = sample
        case HMC5883L.Mode.single:
            guard let due = singleDue, sampler.now >= due else { return }
            field = sampler.sample(at: due)
            singleDue = nil
            registers[Int(R.mode)] = (registers[Int(R.mode)] & ~0b11) | HMC5883L.Mode.idle
        default:
            return
        }
        guard !locked else { return }   // a partly read sample holds; this one is lost
        store(field)
    }

    private func store(_ measured: Vector3) {
        var field = measured
        switch configA & 0b11 {   // self-test bias: +1.16 G on X and Y, +1.08 G on Z
        case 0b01: field += Vector3(116, 116, 108)
        case 0b10: field -= Vector3(116, 116, 108)
        default: break
        }
        let countsPerMicrotesla = activeGain.countsPerGauss / 100
        // The data order is X, Z, Y.
        for (slot, value) in [field.x, field.z, field.y].enumerated() {
            var counts = clampedCount(value * countsPerMicrotesla, -4096...4095)
            if counts < -2048 || counts > 2047 { counts = Int(HMC5883L.overflowCode) }
            let bytes = wordBytes(counts, littleEndian: false)
            registers[Int(R.dataXMSB) + 2 * slot] = bytes[0]
            registers[Int(R.dataXMSB) + 2 * slot + 1] = bytes[1]
        }
        activeGain = gain
        registers[Int(R.status)] |= HMC5883L.Status.ready
    }
}
