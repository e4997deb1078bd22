import Linear
import Sensors

/// A register-level MMC5983MA: the driver talks to it exactly as to the real chip.
///
/// Implements the product ID, write-only self-clearing control registers, SET and RESET pulses that
/// flip the sign of the field term while the bridge offset stays (output = 131072 + offset ± field),
/// single measurements (TM_M) that take the bandwidth's measurement time and raise Meas_M_Done,
/// continuous mode at the Cm_freq rate, software reset, 18-bit output split over 0x00–0x06, saturation
/// at 0 and 262143, and noise by bandwidth.
///
/// ```swift
/// let emulator = MMC5983MAEmulator(physics: physics)
/// emulator.bridgeOffset = Vector3(20, -10, 5)     // µT; the driver's SET/RESET pairs remove it
/// bus.attach(emulator, at: 0x30)
/// ```
public final class MMC5983MAEmulator: MagnetometerEmulatorBase, EmulatedMagnetometer {
    typealias R = MMC5983MA.Register
    public private(set) var registers = [UInt8](repeating: 0, count: 0x30)
    private var bandwidth = MMC5983MA.Bandwidth.hz100
    private var measurementDue: Double?
    private var autoSetReset = false
    private var continuous = false
    /// +1 after a SET pulse (and at power-on), −1 after a RESET pulse.
    public private(set) var polarity = 1.0
    /// The bridge's zero-field offset, µT, the same after SET and RESET.
    public var bridgeOffset = Vector3(6.1, -3.4, 9.8)

    public var chip: ChipKind { .mmc5983ma }

    /// `noise`: RMS µT per axis per measurement (nil: the datasheet figure for the bandwidth).
    public init(physics: PhysicsSource, noise: Double? = nil, seed: UInt64 = 1) {
        super.init(sampler: MagneticSampler(physics: physics, fixedNoise: noise, seed: seed))
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x30)
        registers[Int(R.productID)] = MMC5983MA.identity
        registers[Int(R.status)] = MMC5983MA.Status.otpReadDone
        polarity = 1   // power-on performs a SET
        measurementDue = nil
        autoSetReset = false
        continuous = false
        setBandwidth(.hz100)
        sampler.reset()
    }

    private func setBandwidth(_ bw: MMC5983MA.Bandwidth) {
        bandwidth = bw
        sampler.useDatasheetNoise(Vector3(bw.noise, bw.noise, bw.noise))
    }

    public func write(register: UInt8, value: UInt8) {
        switch register {
        case R.status:
            registers[Int(R.status)] &= ~(value & 0x03)   // writing 1 clears a done flag
        case R.control0:
            if value & MMC5983MA.Control0.set != 0 { polarity = 1 }
            if value & MMC5983MA.Control0.reset != 0 { polarity = -1 }
            autoSetReset = value & MMC5983MA.Control0.autoSetReset != 0
            if value & MMC5983MA.Control0.takeMeasurement != 0 {
                registers[Int(R.status)] &= ~MMC5983MA.Status.measurementDone
                measurementDue = sampler.now + bandwidth.measurementTime
            }
        case R.control1:
            if value & MMC5983MA.Control1.softwareReset != 0 { reset(); return }
            setBandwidth(MMC5983MA.Bandwidth(rawValue: value & 0b11) ?? .hz100)
        case R.control2:
            let rates: [Double] = [0, 1, 10, 20, 50, 100, 200, 1000]
            let rate = rates[Int(value & 0b111)]
            continuous = value & MMC5983MA.Control2.continuousEnable != 0 && rate > 0
            if continuous { sampler.setRate(rate) }
        default:
            return   // output and ID registers are read-only
        }
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        updateSample()
        return (0..<count).map { i in
            let register = Int(start) + i
            // The control registers are write-only and read back as 0.
            guard register < registers.count, !(Int(R.control0)...Int(R.control3)).contains(register) else { return 0 }
            return registers[register]
        }
    }

    private func updateSample() {
        if let due = measurementDue, sampler.now >= due {
            measurementDue = nil
            store(sampler.sample(at: due))
        } else if continuous, measurementDue == nil, let field = sampler.sampleIfDue() {
            if autoSetReset { polarity = 1 }
            store(field)
        }
    }

    private func store(_ field: Vector3) {
        let countsPerMicrotesla = MMC5983MA.countsPerGauss / 100
        var low: UInt8 = 0
        for axis in 0..<3 {
            let value = Double(MMC5983MA.zeroFieldCount) + (bridgeOffset[axis] + polarity * field[axis]) * countsPerMicrotesla
            let counts = clampedCount(value, 0...MMC5983MA.maximumCount)
            registers[2 * axis] = UInt8(counts >> 10)
            registers[2 * axis + 1] = UInt8((counts >> 2) & 0xFF)
            low |= UInt8(counts & 0b11) << UInt8(6 - 2 * axis)
        }
        registers[Int(R.xyzOut2)] = low
        registers[Int(R.status)] |= MMC5983MA.Status.measurementDone
    }
}
