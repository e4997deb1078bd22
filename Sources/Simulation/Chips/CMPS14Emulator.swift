import Glibc
import Linear
import Sensors

/// A register-level CMPS14: the module's own outputs computed from the physics, so `detect` and the
/// driver see what a level or tilted module reports.
///
/// Implements the software version at 0x00 (writes there are commands, ignored: calibration storage is
/// not modelled), the tilt-compensated magnetic bearing of the module's X axis (0x01 8-bit, 0x02–0x03
/// tenths of a degree), pitch and roll (signed degrees), the raw magnetometer (0x06–0x0B, big-endian,
/// 16 counts per µT, clamped at the 16-bit rails) fresh on every read, the calibration byte (0x1E,
/// `calibration`), and a register pointer that advances on multi-byte reads.
///
/// ```swift
/// bus.attach(CMPS14Emulator(physics: physics), at: 0x60)
/// let chip = try CMPS14(bus: bus, now: clock.now)
/// ```
public final class CMPS14Emulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = CMPS14.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x20)
    /// What register 0x1E reads (SYS, GYR, ACC, MAG: 0–3 each).
    public var calibration: UInt8 = 0xFF
    private let physics: PhysicsSource

    public var chip: ChipKind { .cmps14 }

    public init(physics: PhysicsSource, noise: Double? = nil, seed: UInt64 = 19, version: UInt8 = 5) {
        self.physics = physics
        let n = noise ?? 0.5
        super.init(sampler: MagneticSampler(physics: physics, noise: Vector3(n, n, n), seed: seed))
        registers[Int(R.version)] = version
    }

    public func write(register: UInt8, value: UInt8) {}

    public func read(start: UInt8, count: Int) -> [UInt8] {
        update()
        return (0..<count).map { i in
            let register = Int(start) + i
            return register < registers.count ? registers[register] : 0
        }
    }

    private func update() {
        let t = physics.now()
        let a = physics.acceleration(t)
        // The module refreshes its outputs faster than anyone reads them: every read sees the present.
        let measured = sampler.sample(at: t)
        for axis in 0..<3 {
            let bytes = wordBytes(clampedCount(measured[axis] * CMPS14.countsPerMicrotesla, -32768...32767), littleEndian: false)
            registers[Int(R.magXHigh) + 2 * axis] = bytes[0]
            registers[Int(R.magXHigh) + 2 * axis + 1] = bytes[1]
        }
        // The module's own fusion: tilt-compensated bearing of its X axis (Z up when level).
        let down = -a, field = forcedField ?? physics.magneticField(t)
        let east = down.cross(field), north = east.cross(down)
        var bearing = atan2(east.x * north.norm, north.x * east.norm) * 180 / Double.pi
        if !bearing.isFinite { bearing = 0 }
        if bearing < 0 { bearing += 360 }
        let tenths = Int((bearing * 10).rounded()) % 3600
        registers[Int(R.bearing8)] = UInt8(tenths * 256 / 3600)
        registers[Int(R.bearing16)] = UInt8(tenths >> 8)
        registers[Int(R.bearing16) + 1] = UInt8(tenths & 0xFF)
        let g = a.normalized ?? Vector3(0, 0, 1)
        let pitch = asin(max(-1, min(1, g.x))) * 180 / Double.pi
        let roll = atan2(-g.y, g.z) * 180 / Double.pi
        registers[Int(R.pitch)] = UInt8(bitPattern: Int8(max(-90, min(90, pitch.rounded()))))
        registers[Int(R.roll)] = UInt8(bitPattern: Int8(max(-90, min(90, roll.rounded()))))
        registers[Int(R.calibration)] = calibration
    }
}
