import Platform
import Linear
import Sensors
import Simulation

/// Shared helpers for the driver tests: an emulated bus on a manual clock, polling, comparisons.
enum DriverTestKit {
    /// Physics with a constant field (µT, chip axes) on `clock`.
    static func physics(_ clock: ManualClock, field: Vector3 = Vector3(21.5, -8.25, 43.75)) -> PhysicsSource {
        PhysicsSource(now: { clock.now() }, magneticField: { _ in field })
    }

    /// A bus with `device` at `address` (trace on).
    static func bus(_ device: any RegisterDevice, at address: I2CAddress) -> EmulatedI2CBus {
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(device, at: address)
        return bus
    }

    /// Polls `chip`, advancing `clock` by `step` between polls, until a sample arrives or `seconds` pass.
    static func poll(_ chip: any Magnetometer, clock: ManualClock, step: Double = 0.002,
                     seconds: Double = 1) throws -> Vector3? {
        var elapsed = 0.0
        while elapsed <= seconds {
            if let field = try chip.readIfReady() { return field }
            clock.advance(by: step)
            elapsed += step
        }
        return nil
    }

    /// Collects `count` samples by polling.
    static func samples(_ chip: any Magnetometer, clock: ManualClock, count: Int) throws -> [Vector3] {
        var out: [Vector3] = []
        while out.count < count, let field = try poll(chip, clock: clock) { out.append(field) }
        return out
    }

    /// True when every component of `a` is within `tolerance` of `b`.
    static func close(_ a: Vector3?, _ b: Vector3, _ tolerance: Double) -> Bool {
        guard let a else { return false }
        return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
    }

    /// Root-mean-square deviation from the mean, per axis, averaged over the axes.
    static func noise(_ samples: [Vector3]) -> Double {
        guard samples.count > 1 else { return 0 }
        let mean = samples.reduce(Vector3.zero, +) / Double(samples.count)
        let variance = samples.reduce(0.0) { $0 + ($1 - mean).squaredNorm } / Double(samples.count - 1) / 3
        return variance.squareRoot()
    }

    /// The writes in a trace, as (address, register, value).
    static func writes(_ trace: [I2CTransaction]) -> [I2CTransaction] {
        trace.filter { if case .write = $0 { return true } else { return false } }
    }
}
