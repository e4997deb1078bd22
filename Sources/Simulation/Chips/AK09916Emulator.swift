import Linear
import Sensors

/// A register-level AK09916 (the ICM-20948's magnetometer). On a rig it sits behind
/// `ICM20948Emulator`, which attaches it to the bus only while the bypass is enabled.
///
/// Implements WIA1/WIA2, power-down after reset, CNTL3 soft reset, single measurement, continuous
/// modes 1–4 (10/20/50/100 Hz), DRDY and DOR cleared by reading a data register or ST2, data
/// protection (from the first data read until ST2 is read, new samples are skipped and DOR is set),
/// HOFL beyond ±4912 µT, 0.15 µT/LSB, and the register pointer's auto-increment
/// (0x00→0x01→0x02→0x03→0x10…0x18→0x00, and 0x30…0x32→0x30). The physics field is in the board's
/// printed (ICM-20948) axes; the die measures it as (x, −y, −z).
///
/// ```swift
/// let ak = AK09916Emulator(physics: physics)
/// bus.attach(ICM20948Emulator(bus: bus, magnetometer: ak), at: 0x69)
/// ```
public final class AK09916Emulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = AK09916.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x35)
    private var protected = false

    public var chip: ChipKind { .ak09916 }

    /// `noise`: RMS µT per axis (nil: 0.45 µT, about 3 LSB; the datasheet gives no figure).
    public init(physics: PhysicsSource, noise: Double? = nil, seed: UInt64 = 1) {
        let n = noise ?? 0.45
        super.init(sampler: MagneticSampler(physics: physics, noise: Vector3(n, n, n), seed: seed))
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x35)
        registers[Int(R.companyID)] = AK09916.identity[0]
        registers[Int(R.deviceID)] = AK09916.identity[1]
        protected = false
        sampler.reset()
    }

    private var mode: UInt8 { registers[Int(R.control2)] & 0x1F }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case R.control3:
            if value & 0x01 != 0 { reset() }
        case R.control2:
            registers[Int(R.control2)] = value & 0x1F
            let rate = AK09916.Rate(rawValue: value & 0x1F)
            if let rate { sampler.setRate(rate.hertz) } else { sampler.reset() }
        default:
            return   // everything else is read-only (TS1/TS2 are factory test registers)
        }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        updateSample()
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var register = Int(start)
        for _ in 0..<count {
            out.append(register < registers.count ? registers[register] : 0)
            if (Int(R.dataXL)...Int(R.dummy)).contains(register) {
                protected = true
                registers[Int(R.status1)] = 0            // DRDY and DOR drop on a data read
            } else if register == Int(R.status2) {
                protected = false                        // reading ST2 ends the sample
                registers[Int(R.status1)] = 0
            }
            register = Self.next(after: register)
        }
        return out
    }

    /// The register pointer after `register` (the chip's auto-increment map).
    static func next(after register: Int) -> Int {
        switch register {
        case 0x03: return 0x10
        case 0x18: return 0x00
        case 0x32: return 0x30
        default: return register + 1
        }
    }

    private func updateSample() {
        let field: Vector3
        if AK09916.Rate(rawValue: mode) != nil {
            guard let sample = sampler.sampleIfDue() else { return }
            field = sample
        } else if mode == AK09916.Mode.single {
            field = sampler.sample(at: sampler.now)
            registers[Int(R.control2)] = AK09916.Mode.powerDown
        } else {
            return
        }
        guard !protected else {
            registers[Int(R.status1)] |= AK09916.Status1.dataOverrun   // skipped: the data is being read
            return
        }
        let die = Vector3(field.x, -field.y, -field.z)
        var overflow = false
        for axis in 0..<3 {
            let counts = die[axis] / AK09916.microteslaPerCount
            if abs(counts) > Double(AK09916.maximumCount) { overflow = true }
            let bytes = wordBytes(clampedCount(counts, -AK09916.maximumCount...AK09916.maximumCount), littleEndian: true)
            registers[Int(R.dataXL) + 2 * axis] = bytes[0]
            registers[Int(R.dataXL) + 2 * axis + 1] = bytes[1]
        }
        registers[Int(R.status2)] = overflow ? AK09916.Status2.overflow : 0
        let overrun = registers[Int(R.status1)] & AK09916.Status1.dataReady != 0
        registers[Int(R.status1)] = AK09916.Status1.dataReady | (overrun ? AK09916.Status1.dataOverrun : 0)
    }
}
