import Testing
import Foundation
import Linear
@testable import Calibration

@Suite("Coverage and quality metrics")
struct MetricsTests {
    @Test func regionsHaveEqualArea() {
        var rng = SplitMix64(seed: 1)
        var coverage = SphereCoverage()
        let n = 200_000
        for _ in 0..<n { coverage.add(direction: Synthetic.randomUnit(&rng)) }
        #expect(coverage.counts.reduce(0, +) == n)
        for c in coverage.counts {
            #expect(abs(Double(c) - Double(n) / 100) < 0.07 * Double(n) / 100)
        }
        #expect(coverage.coveragePercent == 100)
        #expect(coverage.gaps == 0)
    }

    @Test func regionCentresLieInTheirRegions() {
        for r in 0..<SphereCoverage.regionCount {
            let c = SphereCoverage.centre(ofRegion: r)
            #expect(abs(c.norm - 1) < 1e-12)
            #expect(SphereCoverage.region(of: c) == r)
        }
        #expect(SphereCoverage.region(of: .zero) == nil)
        #expect(SphereCoverage.region(of: Vector3(.nan, 0, 1)) == nil)
        #expect(SphereCoverage.region(of: Vector3(0, 0, 1)) == 0)
        #expect(SphereCoverage.region(of: Vector3(0, 0, -1)) == 99)
    }

    @Test func gapScoreFollowsMotionCal() {
        var c = SphereCoverage()
        #expect(c.gaps == 100)
        c.add(direction: SphereCoverage.centre(ofRegion: 3))
        #expect(abs(c.gaps - 99.2) < 1e-9)
        c.add(direction: SphereCoverage.centre(ofRegion: 3))
        #expect(abs(c.gaps - 99.01) < 1e-9)
        c.add(direction: SphereCoverage.centre(ofRegion: 3))
        #expect(abs(c.gaps - 99) < 1e-9)
        #expect(c.coveredRegions == 1)
    }

    @Test func missingSideIsFoundForAHemisphereGap() {
        var c = SphereCoverage()
        for r in 0..<100 where SphereCoverage.centre(ofRegion: r).y < 0.2 {
            for _ in 0..<3 { c.add(direction: SphereCoverage.centre(ofRegion: r)) }
        }
        #expect(c.missingSide == .right)
        #expect(c.emptyRegionCount(toward: .right) > 10)
        #expect(c.emptyRegionCount(toward: .left) == 0)
        // Scattered single gaps: no side.
        var s = SphereCoverage()
        for r in 0..<100 where r % 17 != 5 { for _ in 0..<3 { s.add(direction: SphereCoverage.centre(ofRegion: r)) } }
        #expect(s.missingSide == nil)
    }

    @Test func metricsOfAPerfectSphere() {
        var rng = SplitMix64(seed: 4)
        let fit = EllipsoidFit(offset: Vector3(10, 20, 30), matrix: .identity, fieldStrength: 50, model: .offset)
        let samples = (0..<5000).map { _ in Vector3(10, 20, 30) + Synthetic.randomUnit(&rng) * 50 }
        let m = QualityMetrics(samples: samples, fit: fit, expectedFieldStrength: 40)
        #expect(m.residualPercent < 1e-9)
        #expect(m.spreadAfterPercent < 1e-9)
        #expect(m.spreadBeforePercent > 10)
        #expect(m.wobblePercent < 1.5)
        #expect(m.fieldRatio == 1.25)
        #expect(m.sampleCount == 5000)
        // A lopsided cloud: every sample pushed 5 (10 %) along +x. Each region mean moves by
        // about 5·(c·x̂)·c, which averages to a third of the shift over the sphere: ≈ 3.3 %.
        let shifted = samples.map { $0 + Vector3(5, 0, 0) }
        let w = QualityMetrics(samples: shifted, fit: fit).wobblePercent
        #expect(w > 2.5 && w < 4.5)
    }

    @Test func emptyInputGivesNoNaN() {
        let fit = EllipsoidFit(offset: .zero, matrix: .identity, fieldStrength: 50, model: .offset)
        let m = QualityMetrics(samples: [Vector3(.nan, 0, 0)], fit: fit)
        for v in [m.residualPercent, m.spreadAfterPercent, m.spreadBeforePercent, m.wobblePercent, m.fieldStrength] {
            #expect(v.isFinite)
        }
        #expect(m.sampleCount == 0)
    }

    @Test func symmetricEigenDecomposition() throws {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let r = Synthetic.randomRotation(&rng)
            let d = Vector3(rng.nextGaussian() * 3, rng.nextGaussian(), rng.nextGaussian() * 0.1)
            let a = r * Matrix3.diagonal(d) * r.transposed
            let e = try #require(a.symmetricEigen())
            let sorted = [d.x, d.y, d.z].sorted()
            for i in 0..<3 { #expect(abs(e.values[i] - sorted[i]) < 1e-9) }
            let rebuilt = e.vectors * Matrix3.diagonal(e.values) * e.vectors.transposed
            for i in 0..<3 { for j in 0..<3 { #expect(abs(rebuilt[i, j] - a[i, j]) < 1e-9) } }
            let vtv = e.vectors.transposed * e.vectors
            for i in 0..<3 { for j in 0..<3 { #expect(abs(vtv[i, j] - (i == j ? 1 : 0)) < 1e-9) } }
        }
        let s = try #require(Matrix3.diagonal(Vector3(4, 9, 16)).symmetricSquareRoot())
        #expect(s.isApproximatelyEqual(Matrix3.diagonal(Vector3(2, 3, 4))))
        #expect(Matrix3.diagonal(Vector3(1, -1, 1)).symmetricSquareRoot() == nil)
        #expect(Matrix3(rows: Vector3(.nan, 0, 0), .zero, .zero).symmetricEigen() == nil)
    }

    @Test func formatting() {
        #expect(formatPercent(4.56) == "4.6")
        #expect(formatPercent(140.2) == "140")
        #expect(formatPercent(0.123) == "0.12")
    }
}

extension Matrix3 {
    func isApproximatelyEqual(_ o: Matrix3, tolerance: Double = 1e-9) -> Bool {
        r0.isApproximatelyEqual(to: o.r0, absoluteTolerance: tolerance)
            && r1.isApproximatelyEqual(to: o.r1, absoluteTolerance: tolerance)
            && r2.isApproximatelyEqual(to: o.r2, absoluteTolerance: tolerance)
    }
}
