import Linear
import Testing
@testable import Geodesy

@Suite struct NormalizeDegreesTests {
    @Test(arguments: [
        (0.0, 0.0), (360, 0), (720, 0), (-360, 0), (-90, 270), (90, 90), (359.5, 359.5),
        (725, 5), (-725, 355), (180, 180), (-180, 180), (1e-300, 1e-300),
    ])
    func reduces(_ input: Double, _ expected: Double) {
        #expect(normalizeDegrees(input) == expected)
    }

    @Test func tinyNegativeAnglesGiveZeroNot360() {
        for x in [-1e-20, -1e-14, -1e-300, -Double.leastNonzeroMagnitude, -0.0] {
            let r = normalizeDegrees(x)
            #expect(r == 0 && r.sign == .plus, "\(x) → \(r)")
        }
        // Just large enough to stay below 360.
        #expect(normalizeDegrees(-1e-12) < 360)
        #expect(normalizeDegrees(-1e-12) > 359.99)
    }

    @Test func resultAlwaysInRange() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<100_000 {
            let scale = [1e-15, 1.0, 360, 1e6, 1e18][Int(rng.next() % 5)]
            let x = (2 * rng.nextUnit() - 1) * scale
            let r = normalizeDegrees(x)
            #expect(r >= 0 && r < 360, "\(x) → \(r)")
            // Same direction as the input.
            if abs(x) < 1e6 {
                let turns = ((x - r) / 360).rounded()
                #expect(abs(x - r - 360 * turns) <= 1e-9)
            }
        }
    }

    @Test func nonFiniteGivesZero() {
        #expect(normalizeDegrees(.nan) == 0)
        #expect(normalizeDegrees(.infinity) == 0)
        #expect(normalizeDegrees(-.infinity) == 0)
    }
}
