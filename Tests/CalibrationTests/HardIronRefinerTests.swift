import Testing
import Glibc
import Linear
@testable import Calibration

/// The background refinement on synthetic motion whose truth is known: a level body turning about
/// its vertical at `yawRate(t)`, the Sydney field, a residual offset, 0.3 µT of noise at 50 Hz.
@Suite("HardIronRefiner")
struct HardIronRefinerTests {
    static let ned = Vector3(24.16, 5.53, -51.64)
    static var strength: Double { ned.norm }
    static var dip: Double { degrees(atan2(ned.z, (ned.x * ned.x + ned.y * ned.y).squareRoot())) }

    /// Feeds `seconds` of motion from `start`; returns the refiner. `extra(t)` is added to the field
    /// (body axes); `flagged(t)` is the attitude filter's disturbance flag.
    static func run(_ refiner: inout HardIronRefiner, from start: Double = 0, seconds: Double, offset: Vector3,
                    yaw: (Double) -> Double, extra: (Double) -> Vector3 = { _ in .zero },
                    flagged: (Double) -> Bool = { _ in false }, seed: UInt64 = 3) {
        var rng = SplitMix64(seed: seed)
        let dt = 0.02
        var t = start
        while t < start + seconds {
            let psi = yaw(t)
            let rate = (yaw(t + 0.001) - yaw(t - 0.001)) / 0.002
            let body = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(psi)).transposed * ned
            let noise = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * 0.3
            refiner.add(time: t, field: body + offset + extra(t) + noise, rotationRate: Vector3(0, 0, rate),
                        down: Vector3(0, 0, 1), disturbed: flagged(t), heading: psi)
            t += dt
        }
    }

    static func reference() -> HardIronRefiner {
        var r = HardIronRefiner()
        r.setReference(fieldStrength: strength, inclinationDegrees: dip)
        return r
    }

    @Test func nothingIsLearnedWithoutAReference() {
        var r = HardIronRefiner()
        Self.run(&r, seconds: 120, offset: Vector3(5, -4, 2), yaw: { 20 * $0 })
        #expect(r.state == .waitingForReference)
        #expect(r.offset == .zero)
    }

    @Test func circlesPinTheOffsetDown() {
        var r = Self.reference()
        let truth = Vector3(5, -4, 2)
        Self.run(&r, seconds: 240, offset: truth, yaw: { 10 * $0 })
        // A change from zero: confirmed for a minute before it is used.
        #expect(r.state == .converged)
        #expect((r.offset - truth).norm < 0.25, "\(r.offset)")
        #expect(r.adoptions == 1)
        let sigma = r.uncertainty ?? Vector3(9, 9, 9)
        #expect(sigma.x < 0.3 && sigma.y < 0.3)
    }

    @Test func aStraightLegTeachesNothing() {
        var r = Self.reference()
        Self.run(&r, seconds: 300, offset: Vector3(5, -4, 2), yaw: { 60 + 0 * $0 })
        #expect(!r.hasConverged)
        #expect(r.offset == .zero)
        #expect(r.state == .collecting)
    }

    @Test func anUnchangedCalibrationStaysPut() {
        var r = Self.reference()
        Self.run(&r, seconds: 300, offset: .zero, yaw: { 10 * $0 })
        #expect(r.hasConverged)
        #expect(r.adoptions == 0)
        #expect(r.offset.norm < 0.15, "\(r.offset)")
    }

    @Test func aTwentySecondMagnetIsNotLearned() {
        // Turning all the time; a 15 µT magnet rides with the body from 200 s to 220 s, flagged by the
        // attitude filter while |B| is off (as it is at most headings).
        var r = Self.reference()
        let magnet = Vector3(9, -12, 0)
        func on(_ t: Double) -> Bool { t >= 200 && t < 220 }
        Self.run(&r, seconds: 400, offset: .zero, yaw: { 10 * $0 }, extra: { on($0) ? magnet : .zero },
                 flagged: on)
        #expect(r.adoptions == 0)
        #expect(r.offset.norm < 0.3, "\(r.offset)")
    }

    @Test func anUnflaggedTwentySecondMagnetIsNotLearnedEither() {
        // The attitude filter missed it: the persistence rule alone must hold.
        var r = Self.reference()
        let magnet = Vector3(9, -12, 0)
        Self.run(&r, seconds: 400, offset: .zero, yaw: { 10 * $0 }, extra: { $0 >= 200 && $0 < 220 ? magnet : .zero })
        #expect(r.adoptions == 0)
        #expect(r.offset.norm < 0.3, "\(r.offset)")
    }

    @Test func aStepIsAdoptedAfterItPersists() {
        var r = Self.reference()
        let step = Vector3(6, -5, 3)
        Self.run(&r, seconds: 600, offset: .zero, yaw: { 8 * $0 }, extra: { $0 >= 150 ? step : .zero })
        #expect(r.adoptions == 1)
        #expect((r.offset - step).norm < 0.3, "\(r.offset)")
    }

    @Test func boundedMemory() {
        var r = Self.reference()
        Self.run(&r, seconds: 1500, offset: .zero, yaw: { 10 * $0 })
        #expect(r.blockCount <= r.settings.maximumBlocks)
    }
}
