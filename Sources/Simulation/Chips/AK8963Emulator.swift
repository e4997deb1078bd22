import Linear
import Sensors

/// A register-level AK8963 (the MPU-9250's magnetometer). On a rig it sits behind an
/// `MPU6050Emulator(model: .mpu9250)`, which attaches it to the bus only while the bypass is on.
///
/// Implements WIA (0x48), power-down after reset, CNTL2 soft reset, single measurement, continuous
/// modes 1 and 2 (8 and 100 Hz), the fuse ROM (ASAX–ASAZ readable only in fuse ROM access mode; 0x00
/// otherwise), 14- and 16-bit output (CNTL1.BIT, echoed in ST2.BITM), DRDY and DOR, data protection
/// (from the first data read until ST2 is read, new samples are skipped and DOR is set), HOFL when
/// |X| + |Y| + |Z| reaches 4912 µT, and the sensitivity error the fuse ROM describes (each die axis
/// reads the true field divided by its adjustment). The physics field is in the MPU-9250's axes; the
/// die measures it as (y, x, −z).
///
/// ```swift
/// let mpu = MPU6050Emulator(physics: physics, model: .mpu9250)
/// bus.attach(mpu, at: 0x68)
/// mpu.connect(magnetometer: AK8963Emulator(physics: physics), on: bus, at: 0x0C)
/// ```
public final class AK8963Emulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = AK8963.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x13)
    /// The fuse ROM's sensitivity adjustment bytes (ASAX, ASAY, ASAZ).
    public let adjustmentBytes: [UInt8]
    private var protected = false

    public var chip: ChipKind { .ak8963 }

    /// `noise`: RMS µT per axis (nil: 0.45 µT, about 3 LSB at 16 bits).
    public init(physics: PhysicsSource, noise: Double? = nil, seed: UInt64 = 1, adjustment: [UInt8] = [0xB0, 0xB3, 0xA6]) {
        adjustmentBytes = adjustment
        let n = noise ?? 0.45
        super.init(sampler: MagneticSampler(physics: physics, noise: Vector3(n, n, n), seed: seed))
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x13)
        registers[Int(R.deviceID)] = AK8963.identity
        registers[Int(R.info)] = 0x9A
        protected = false
        sampler.reset()
    }

    private var mode: UInt8 { registers[Int(R.control1)] & 0x0F }
    private var sixteenBit: Bool { registers[Int(R.control1)] & AK8963.Mode.sixteenBit != 0 }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case R.control2:
            if value & 0x01 != 0 { reset() }
        case R.control1:
            registers[Int(R.control1)] = value & 0x1F
            switch value & 0x0F {
            case AK8963.Mode.continuous1: sampler.setRate(8)
            case AK8963.Mode.continuous2: sampler.setRate(100)
            default: sampler.reset()
            }
        default:
            return   // everything else is read-only here (ASTC and I2CDIS are not modelled)
        }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        updateSample()
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var register = Int(start)
        for _ in 0..<count {
            switch register {
            case Int(R.adjustmentX)...Int(R.adjustmentX) + 2:
                out.append(mode == AK8963.Mode.fuseROM ? adjustmentBytes[register - Int(R.adjustmentX)] : 0)
            case 0..<registers.count:
                out.append(registers[register])
            default:
                out.append(0)
            }
            if (Int(R.dataXL)...Int(R.dataXL) + 5).contains(register) {
                protected = true
            } else if register == Int(R.status2) {
                protected = false                      // reading ST2 ends the sample
                registers[Int(R.status1)] = 0
            }
            register += 1
        }
        return out
    }

    private func updateSample() {
        let field: Vector3
        if mode == AK8963.Mode.continuous1 || mode == AK8963.Mode.continuous2 {
            guard let sample = sampler.sampleIfDue() else { return }
            field = sample
        } else if mode == AK8963.Mode.single {
            field = sampler.sample(at: sampler.now)
            registers[Int(R.control1)] &= ~0x0F
        } else {
            return
        }
        guard !protected else {
            registers[Int(R.status1)] |= AK8963.Status1.dataOverrun   // skipped: the data is being read
            return
        }
        let adjustment = AK8963.adjustment(adjustmentBytes)
        let die = Vector3(field.y, field.x, -field.z)
        let perCount = sixteenBit ? AK8963.microteslaPerCount : 4 * AK8963.microteslaPerCount
        let limit = sixteenBit ? 32760 : 8190
        for axis in 0..<3 {
            let counts = die[axis] / adjustment[axis] / perCount
            let bytes = wordBytes(clampedCount(counts, -limit...limit), littleEndian: true)
            registers[Int(R.dataXL) + 2 * axis] = bytes[0]
            registers[Int(R.dataXL) + 2 * axis + 1] = bytes[1]
        }
        let overflow = abs(die.x) + abs(die.y) + abs(die.z) >= AK8963.overflowSum
        registers[Int(R.status2)] = (overflow ? AK8963.Status2.overflow : 0) | (sixteenBit ? AK8963.Status2.sixteenBit : 0)
        let overrun = registers[Int(R.status1)] & AK8963.Status1.dataReady != 0
        registers[Int(R.status1)] = AK8963.Status1.dataReady | (overrun ? AK8963.Status1.dataOverrun : 0)
    }
}
