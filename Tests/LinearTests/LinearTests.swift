import Linear
import Testing

@Suite struct LinearTests {
    @Test func vectorAlgebra() {
        let a = Vector3(1, 2, 3), b = Vector3(-4, 5, 0.5)
        #expect(a.dot(b) == -4 + 10 + 1.5)
        #expect(a.cross(b) == Vector3(2 * 0.5 - 3 * 5, 3 * -4 - 1 * 0.5, 1 * 5 - 2 * -4))
        #expect(Vector3(3, 4, 0).norm == 5)
        #expect(Vector3.zero.normalized == nil)
        #expect(Vector3(.nan, 0, 0).normalized == nil)
    }

    @Test func inverseAndDeterminant() throws {
        let m = Matrix3(rows: Vector3(2, 1, 0), Vector3(0, 3, 1), Vector3(1, 0, 4))
        let inv = try #require(m.inverse)
        let p = m * inv
        for i in 0..<3 { for j in 0..<3 { #expect(p[i, j].isApproximatelyEqual(to: i == j ? 1 : 0, absoluteTolerance: 1e-12)) } }
        #expect(Matrix3(rows: Vector3(1, 2, 3), Vector3(2, 4, 6), Vector3(0, 0, 1)).inverse == nil)
        #expect(Matrix3([[1, 2], [3, 4]]) == nil)
    }

    @Test func rotationConventions() {
        // Yaw 90°: the body x axis points east.
        let r = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(90))
        #expect((r * Vector3(1, 0, 0)).isApproximatelyEqual(to: Vector3(0, 1, 0), absoluteTolerance: 1e-15))
        // Pitch up 30°: the nose rises, so body x has a negative down component.
        let p = Matrix3.rotation(roll: 0, pitch: radians(30), yaw: 0)
        #expect((p * Vector3(1, 0, 0)).z < 0)
        // Roll right 30°: the right wing drops, body y gains a positive down component.
        let q = Matrix3.rotation(roll: radians(30), pitch: 0, yaw: 0)
        #expect((q * Vector3(0, 1, 0)).z > 0)
        // Orthonormal with determinant +1.
        let m = Matrix3.rotation(roll: 0.3, pitch: -0.7, yaw: 2.1)
        #expect(m.determinant.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-12))
        let i = m * m.transposed
        for a in 0..<3 { for b in 0..<3 { #expect(i[a, b].isApproximatelyEqual(to: a == b ? 1 : 0, absoluteTolerance: 1e-12)) } }
    }

    @Test func angleDifferenceWraps() {
        #expect(angleDifference(359, 1) == -2)
        #expect(angleDifference(1, 359) == 2)
        #expect(angleDifference(180, 0) == 180)
        #expect(angleDifference(0, 180) == 180)
        #expect(angleDifference(-720.5, 0).isApproximatelyEqual(to: -0.5, absoluteTolerance: 1e-12))
    }

    @Test func seededRandomRepeatsAndIsNormal() {
        var a = SplitMix64(seed: 7), b = SplitMix64(seed: 7)
        for _ in 0..<10 { #expect(a.next() == b.next()) }
        var rng = SplitMix64(seed: 42)
        let n = 20000
        var sum = 0.0, sumSq = 0.0
        for _ in 0..<n { let g = rng.nextGaussian(); sum += g; sumSq += g * g }
        #expect(abs(sum / Double(n)) < 0.03)
        #expect(abs(sumSq / Double(n) - 1) < 0.05)
    }

    @Test func skippingAGaussianLeavesTheSameDrawsAfterIt() {
        var drawn = SplitMix64(seed: 11), skipped = SplitMix64(seed: 11)
        for round in 0..<1000 {
            if round % 3 == 0 {
                _ = drawn.nextGaussian()
                skipped.skipGaussian()
            } else {
                #expect(drawn.nextGaussian().bitPattern == skipped.nextGaussian().bitPattern)
            }
        }
        #expect(drawn.next() == skipped.next())
    }
}
