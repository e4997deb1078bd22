import Foundation
import JSON
import Linear
import Simulation
import Testing
@testable import Calibration

/// What the calibration wizard and `--from-file` rely on: the simulated tumble's coverage, the
/// coverage bands, unit conversion, the before/after statistics, the JSON keys and the examples.
@Suite("Calibration wizard support")
struct WizardSupportTests {
    @Test(arguments: [Vector3(24.16, 5.53, -51.64), Vector3(19.3, -0.2, 45.0), Vector3(30, 0, 2), Vector3(1, 0, 55)])
    func simulatedTumbleCoversTheSphereWithin40Seconds(field: Vector3) {
        let scenario = AttitudeScenario.tumble(period: 40, field: field)
        var coverage = SphereCoverage()
        var at30 = 0.0
        var t = 0.0
        while t <= 40 {
            coverage.add(direction: scenario.attitude(at: t).bodyToNED.transposed * field)
            if abs(t - 30) < 0.0025 { at30 = coverage.coveragePercent }
            t += 0.005
        }
        #expect(coverage.coveragePercent == 100, "coverage \(coverage.coveragePercent) %")
        #expect(coverage.gaps < 1, "gaps \(coverage.gaps)")
        #expect(at30 > 75 && at30 < 100, "coverage after 30 s: \(at30) %")
    }

    @Test func tumbleTurnsNoFasterThanAHand() {
        let scenario = AttitudeScenario.tumble(period: 40)
        var previous = scenario.attitude(at: 0).bodyToNED
        var fastest = 0.0
        for k in 1...8000 {
            let r = scenario.attitude(at: Double(k) * 0.005).bodyToNED
            let d = previous.transposed * r
            let angle = degrees(acos(min(1, max(-1, (d[0, 0] + d[1, 1] + d[2, 2] - 1) / 2))))
            fastest = max(fastest, angle / 0.005)
            previous = r
        }
        #expect(fastest < 100, "fastest turn \(fastest)°/s")
    }

    @Test func attitudeFromMatrixRoundTrips() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<500 {
            let a = Attitude(roll: 360 * rng.nextUnit() - 180, pitch: 178 * rng.nextUnit() - 89, yaw: 360 * rng.nextUnit() - 180)
            let back = Attitude(bodyToNED: a.bodyToNED)
            #expect(back.bodyToNED.r0.isApproximatelyEqual(to: a.bodyToNED.r0, absoluteTolerance: 1e-9))
            #expect(back.bodyToNED.r2.isApproximatelyEqual(to: a.bodyToNED.r2, absoluteTolerance: 1e-9))
        }
        let vertical = Attitude(roll: 0, pitch: 90, yaw: 40)
        let again = Attitude(bodyToNED: vertical.bodyToNED)
        #expect(again.bodyToNED.r0.isApproximatelyEqual(to: vertical.bodyToNED.r0, absoluteTolerance: 1e-9))
        #expect(again.bodyToNED.r1.isApproximatelyEqual(to: vertical.bodyToNED.r1, absoluteTolerance: 1e-9))
    }

    @Test func countsByBandFollowTheRegionLayout() {
        var coverage = SphereCoverage()
        coverage.add(direction: Vector3(0, 0, 1))        // the +z pole: band 0
        coverage.add(direction: Vector3(0, 0, -1))       // the −z pole: last band
        coverage.add(direction: Vector3(1, 0.01, 0.01))  // equator, longitude ≈ 0
        let bands = coverage.countsByBand
        #expect(bands.map(\.count) == SphereCoverage.bandRegionCounts)
        #expect(bands.map(\.count).reduce(0, +) == SphereCoverage.regionCount)
        #expect(bands[0] == [1])
        #expect(bands[9] == [1])
        #expect(bands[4][0] == 1)
        #expect(bands.flatMap { $0 }.reduce(0, +) == 3)
    }

    @Test func magnitudeStatistics() {
        let ring = (0..<360).map { i in Vector3(cos(radians(Double(i))), sin(radians(Double(i))), 0) * 50 }
        #expect(QualityMetrics.magnitudeSpreadPercent(ring) < 1e-9)
        #expect(abs(QualityMetrics.radialResidualPercent(ring, fieldStrength: 40) - 25) < 1e-9)
        let twoSizes = [Vector3(10, 0, 0), Vector3(0, 30, 0)]
        #expect(abs(QualityMetrics.magnitudeSpreadPercent(twoSizes) - 50) < 1e-9)
        #expect(QualityMetrics.magnitudeSpreadPercent([]) == 100)
        #expect(QualityMetrics.radialResidualPercent([Vector3(.nan, 0, 0)], fieldStrength: 50) == 100)
        #expect(QualityMetrics.radialResidualPercent(ring, fieldStrength: 0) == 100)
    }

    @Test func profileUnitConversion() throws {
        var p = CalibrationProfile(sensor: SensorIdentity(chip: "recording"), offset: Vector3(0.1, -0.2, 0.3),
                                   matrix: .identity, fieldStrength: 0.5, created: "2026-11-29T00:00:00Z", unit: "gauss")
        let micro = try #require(p.inMicrotesla())
        #expect(micro.unit == "uT")
        #expect(micro.offset.isApproximatelyEqual(to: Vector3(10, -20, 30), absoluteTolerance: 1e-9))
        #expect(abs(micro.fieldStrength - 50) < 1e-9)
        #expect(micro.matrix == p.matrix)
        p.unit = "counts"
        #expect(p.inMicrotesla() == nil)
        p.unit = "input"
        #expect(p.inMicrotesla() == nil)
        #expect(CalibrationProfile.microteslaPerUnit("µT") == 1)
        #expect(CalibrationProfile.microteslaPerUnit("nT") == 0.001)
    }

    @Test func profileJSONHasTheDocumentedKeys() throws {
        let p = CalibrationProfile(sensor: SensorIdentity(chip: "qmc5883l", bus: 1, address: 0x0D), offset: Vector3(1, 2, 3),
                                   matrix: .identity, fieldStrength: 50, residualPercent: 1.2, coveragePercent: 96,
                                   sampleCount: 512, model: .full, created: "2026-11-29T10:00:00.000Z", unit: "uT")
        let object = try #require(p.jsonValue.object)
        let keys = Set(object.map(\.0))
        for key in ["schema_version", "sensor", "created", "unit", "model", "offset", "matrix", "field_strength",
                    "residual_percent", "coverage_percent", "sample_count"] {
            #expect(keys.contains(key), "missing \(key)")
        }
        #expect(p.jsonValue["offset"]?.array?.count == 3)
        #expect(p.jsonValue["matrix"]?.array?.allSatisfy { $0.array?.count == 3 } == true)
        #expect(p.jsonValue["sensor"]?["address"]?.int == 13)
    }

    /// Every example under calibration/examples decodes (as a calibration file or a single profile).
    @Test func everyExampleProfileDecodes() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("calibration/examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 3, "examples: \(names)")
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let value = try JSONValue.parse(text)
            if value["schema"] != nil {
                let file = try CalibrationProfileFile.decode(value)
                #expect(!file.profiles.isEmpty, "\(name) holds no profile")
                for profile in file.profiles { checkProfile(profile, name) }
            } else {
                checkProfile(try CalibrationProfile(json: value), name)
            }
        }
    }

    private func checkProfile(_ p: CalibrationProfile, _ name: String) {
        #expect(abs(p.matrix.determinant - 1) < 0.01, "\(name): determinant \(p.matrix.determinant)")
        #expect(p.matrix[0, 1] == p.matrix[1, 0] && p.matrix[0, 2] == p.matrix[2, 0] && p.matrix[1, 2] == p.matrix[2, 1],
                "\(name): matrix not symmetric")
        #expect(p.fieldStrength > 0)
        #expect(p.apply(p.offset) == .zero)
    }
}
