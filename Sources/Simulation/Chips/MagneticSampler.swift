import Linear
import Sensors

/// A register-level magnetometer emulator the rig can drive.
///
/// ```swift
/// let chip: any EmulatedMagnetometer = LIS3MDLEmulator(physics: physics)
/// chip.forcedField = Vector3(2000, 0, 0)   // a magnet: the next samples overflow
/// ```
public protocol EmulatedMagnetometer: RegisterDevice {
    /// The chip this emulates.
    var chip: ChipKind { get }
    /// When set, every sample measures this field (µT, chip axes, noise still added) instead of the physics.
    var forcedField: Vector3? { get set }
}

extension QMC5883LEmulator: EmulatedMagnetometer {
    public var chip: ChipKind { .qmc5883l }
}

/// The physics half shared by the magnetometer emulators: when a sample is due, and the noisy field it
/// measures (µT, chip axes), so each emulator only encodes registers.
///
/// ```swift
/// var sampler = MagneticSampler(physics: physics, noise: Vector3(0.3, 0.3, 0.4), seed: 7)
/// sampler.setRate(80)
/// if let field = sampler.sampleIfDue() { encode(field) }
/// ```
public struct MagneticSampler: Sendable {
    public let physics: PhysicsSource
    /// RMS noise per axis, µT.
    public var noise: Vector3
    /// When set, samples measure this field instead of the physics.
    public var forced: Vector3?
    /// A noise figure the emulator's user chose; when set it overrides the datasheet figures.
    let fixedNoise: Double?
    private var schedule: SampleSchedule

    public init(physics: PhysicsSource, noise: Vector3, seed: UInt64) {
        self.init(physics: physics, noise: noise, fixedNoise: nil, seed: seed)
    }

    /// A sampler whose noise follows the datasheet (`useDatasheetNoise`) unless `fixedNoise` is set.
    init(physics: PhysicsSource, fixedNoise: Double?, seed: UInt64) {
        self.init(physics: physics, noise: .zero, fixedNoise: fixedNoise, seed: seed)
    }

    private init(physics: PhysicsSource, noise: Vector3, fixedNoise: Double?, seed: UInt64) {
        self.physics = physics
        self.noise = noise
        self.fixedNoise = fixedNoise
        schedule = SampleSchedule(rate: 10, slowestRate: 0.01, seed: seed)
    }

    /// Sets the noise for the chip's current configuration: `fixedNoise` on every axis when the user
    /// chose one, else `datasheet` (RMS µT per axis).
    mutating func useDatasheetNoise(_ datasheet: Vector3) {
        noise = fixedNoise.map { Vector3($0, $0, $0) } ?? datasheet
    }

    /// Sets the output data rate (restarts the sample grid).
    public mutating func setRate(_ hertz: Double) { schedule.setRate(hertz) }

    /// Forgets the last sample (after a reset or a mode change).
    public mutating func reset() { schedule.reset() }

    /// The current time on the physics clock.
    public var now: Double { physics.now() }

    /// A sample when one is due now on the output-rate grid, else nil.
    public mutating func sampleIfDue() -> Vector3? {
        let t = physics.now()
        guard schedule.isDue(at: t) else { return nil }
        return sample(at: t)
    }

    /// The noisy field measured at time `t` (for triggered, single measurements).
    public mutating func sample(at t: Double) -> Vector3 {
        schedule.addingNoise(to: forced ?? physics.magneticField(t), rms: noise)
    }
}

/// `value` rounded and clamped to `range` (non-finite values give the lower end).
func clampedCount(_ value: Double, _ range: ClosedRange<Int>) -> Int {
    let rounded = value.rounded()
    guard rounded.isFinite else { return range.lowerBound }
    return Int(max(Double(range.lowerBound), min(Double(range.upperBound), rounded)))
}

/// A 16-bit word as register bytes.
func wordBytes(_ value: Int, littleEndian: Bool) -> [UInt8] {
    let (first, second) = wordPair(value, littleEndian: littleEndian)
    return [first, second]
}

/// A 16-bit word's two register bytes, in the order the chip stores them.
func wordPair(_ value: Int, littleEndian: Bool) -> (first: UInt8, second: UInt8) {
    let word = UInt16(bitPattern: Int16(truncatingIfNeeded: value))
    let low = UInt8(word & 0xFF), high = UInt8(word >> 8)
    return littleEndian ? (low, high) : (high, low)
}
