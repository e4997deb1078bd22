import Glibc
import Linear
import Testing

/// The shared numerics (issue #26): one wrapping to [0, 360) and (−180, 180], one low-pass gain,
/// one mean of vectors.
@Suite("angles, low-pass gain and vector means")
struct AnglesTests {
    @Test("wrap360: [0, 360), exact multiples to 0, −0 to +0, tiny negatives to 0 not 360")
    func wrap360Range() {
        #expect(wrap360(-90) == 270)
        #expect(wrap360(725) == 5)
        #expect(wrap360(360) == 0 && wrap360(-360) == 0 && wrap360(720) == 0)
        #expect(wrap360(-1e-20) == 0)
        #expect(wrap360(-0.0).sign == .plus)
        #expect(wrap360(.nan) == 0 && wrap360(.infinity) == 0)
        var g = SplitMix64(seed: 26)
        for _ in 0..<10_000 {
            let a = (g.nextUnit() - 0.5) * 1e6
            let w = wrap360(a)
            #expect(w >= 0 && w < 360)
            #expect(abs(remainder(w - a, 360)) < 1e-6, "\(a) → \(w)")
        }
    }

    @Test("wrap180 and angleDifference: (−180, 180]")
    func wrap180Range() {
        #expect(wrap180(190) == -170)
        #expect(wrap180(-180) == 180 && wrap180(180) == 180)
        #expect(wrap180(540) == 180)
        #expect(angleDifference(10, 350) == 20 && angleDifference(350, 10) == -20)
        var g = SplitMix64(seed: 27)
        for _ in 0..<10_000 {
            let a = (g.nextUnit() - 0.5) * 1e5, b = (g.nextUnit() - 0.5) * 1e5
            let d = angleDifference(a, b)
            #expect(d > -180 && d <= 180)
            #expect(abs(remainder(d - (a - b), 360)) < 1e-6)
        }
    }

    @Test("lowPassGain: 1 − e^(−dt/τ); τ ≤ 0 gives 1 even at dt = 0; dt ≤ 0 gives 0")
    func gain() {
        #expect(lowPassGain(dt: 0, tau: 0) == 1)
        #expect(lowPassGain(dt: 1, tau: 0) == 1)
        #expect(lowPassGain(dt: 0, tau: 1) == 0)
        #expect(lowPassGain(dt: -1, tau: 1) == 0)
        #expect(lowPassGain(dt: .nan, tau: 1) == 0)
        for x in [1e-6, 0.01, 0.1, 0.124, 0.125, 0.5, 1, 5, 50] {
            // The series below x = 0.125 is within 1e-9 of the result.
            #expect(abs(lowPassGain(dt: x, tau: 1) - (-expm1(-x))) <= 1e-9 * -expm1(-x), "\(x)")
        }
    }

    @Test("mean of vectors; none for an empty collection")
    func vectorMean() {
        #expect(mean([Vector3(0, 0, 1), Vector3(0, 0, 3), Vector3(3, 0, 2)]) == Vector3(1, 0, 2))
        #expect(mean([Vector3]()) == nil)
    }

    @Test("degrees and radians are inverse")
    func degreesRadians() {
        #expect(radians(180) == .pi && degrees(.pi) == 180)
    }
}
