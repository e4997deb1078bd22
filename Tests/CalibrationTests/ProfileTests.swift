import Testing
import Foundation
import Linear
import JSON
@testable import Calibration

@Suite("Calibration profiles and the profile file")
struct ProfileTests {
    static func sample(chip: String = "qmc5883l", bus: Int? = 1, address: Int? = 0x0D) -> CalibrationProfile {
        CalibrationProfile(sensor: SensorIdentity(chip: chip, bus: bus, address: address),
                           offset: Vector3(12.5, -3.25, 40.125),
                           matrix: Matrix3(rows: Vector3(1.02, 0.01, -0.03), Vector3(0.01, 0.97, 0.02), Vector3(-0.03, 0.02, 1.0123)),
                           fieldStrength: 49.61, residualPercent: 0.42, coveragePercent: 97, spreadBeforePercent: 31.9,
                           spreadAfterPercent: 0.43, wobblePercent: 0.8, sampleCount: 811, rejectedCount: 3, model: .full,
                           created: "2025-06-01T12:00:00Z", unit: "uT",
                           mounting: Matrix3.rotation(roll: .pi, pitch: 0, yaw: 0), yawOffsetDegrees: -2.5,
                           accelerometer: AccelerometerCalibration(offset: Vector3(0.01, -0.02, 0.03), scale: Vector3(1.01, 0.99, 1.0)),
                           deviation: DeviationCard(corrections: (0..<36).map { sin(Double($0) / 36 * 2 * .pi) }))
    }

    @Test func applyIsMatrixTimesRawMinusOffset() {
        let p = Self.sample()
        let raw = Vector3(30, 10, -5)
        #expect(p.apply(raw) == p.matrix * (raw - p.offset))
        #expect(CalibrationProfile.identity(sensor: p.sensor, created: "x").apply(raw) == raw)
    }

    @Test func jsonRoundTripAndKeys() throws {
        let p = Self.sample()
        let text = p.jsonValue.serialized(pretty: true)
        for key in ["offset", "matrix", "field_strength", "residual_percent", "coverage_percent", "sample_count",
                    "model", "created", "sensor", "spread_before_percent", "spread_after_percent", "wobble_percent",
                    "rejected_count", "unit", "schema_version", "mounting", "yaw_offset_degrees", "accelerometer",
                    "deviation_degrees"] {
            #expect(text.contains("\"\(key)\""), "missing \(key)")
        }
        let back = try CalibrationProfile.decode(text)
        #expect(back == p)
        // Minimal profile: optional parts absent, still round-trips.
        let minimal = CalibrationProfile(sensor: SensorIdentity(chip: "simulated"), offset: .zero, matrix: .identity,
                                         fieldStrength: 1, created: "2025-01-01T00:00:00Z")
        let minimalText = minimal.jsonValue.serialized()
        #expect(!minimalText.contains("mounting") && !minimalText.contains("\"bus\""))
        #expect(try CalibrationProfile.decode(minimalText) == minimal)
    }

    @Test func fileRoundTripAndLookup() throws {
        var file = CalibrationProfileFile()
        file.upsert(Self.sample())
        file.upsert(Self.sample(chip: "hmc5883l", bus: 1, address: 0x1E))
        var replaced = Self.sample()
        replaced.fieldStrength = 50
        file.upsert(replaced)
        #expect(file.profiles.count == 2)
        let text = file.serialized()
        #expect(text.hasPrefix("{\n  \"schema\": \"lodestone.calibration/1\""))
        #expect(text.hasSuffix("}\n"))
        let back = try CalibrationProfileFile.decode(text)
        #expect(back == file)
        #expect(try CalibrationProfileFile.decode(Array(text.utf8)) == file)
        #expect(back.profile(for: SensorIdentity(chip: "qmc5883l", bus: 1, address: 0x0D))?.fieldStrength == 50)
        // Same chip and address on another bus; the only profile of a chip; no match.
        #expect(back.profile(for: SensorIdentity(chip: "qmc5883l", bus: 3, address: 0x0D))?.fieldStrength == 50)
        #expect(back.profile(for: SensorIdentity(chip: "hmc5883l", bus: 0, address: nil)) != nil)
        #expect(back.profile(for: SensorIdentity(chip: "lis3mdl", bus: 1, address: 0x1C)) == nil)
        file.remove(sensor: SensorIdentity(chip: "hmc5883l", bus: 1, address: 0x1E))
        #expect(file.profiles.count == 1)
        #expect(SensorIdentity(chip: "qmc5883l", bus: 1, address: 0x0D).description == "qmc5883l on bus 1 at 0x0d")
    }

    static func fileError(_ text: String) -> ProfileDecodingError? {
        do { _ = try CalibrationProfileFile.decode(text); return nil } catch { return error }
    }

    @Test func corruptTruncatedForeignAndFutureDocumentsGiveClearErrors() throws {
        let good = CalibrationProfileFile(profiles: [Self.sample()]).serialized()
        // Truncated.
        guard case .invalidJSON? = Self.fileError(String(good.prefix(good.count / 2))) else { Issue.record("truncated"); return }
        #expect(Self.fileError(String(good.prefix(40)))?.message.contains("truncated or corrupted") == true)
        // Foreign documents.
        #expect(Self.fileError(#"{"class":"TPV","mode":3}"#) == .notACalibrationFile(found: nil))
        #expect(Self.fileError(#"[1,2,3]"#) == .notACalibrationFile(found: nil))
        #expect(Self.fileError(#"{"schema":"something.else/1","profiles":[]}"#) == .notACalibrationFile(found: "something.else/1"))
        #expect(Self.fileError(#"{"schema":"something.else/1"}"#)?.message.contains("not a Lodestone calibration file") == true)
        // A newer schema.
        let future = Self.fileError(#"{"schema":"lodestone.calibration/2","profiles":[]}"#)
        #expect(future == .unsupportedSchema("lodestone.calibration/2"))
        #expect(future?.message.contains("newer than this version understands") == true)
        #expect(future?.message.contains("update Lodestone") == true)
        // A newer profile version inside a current file.
        let newer = good.replacingOccurrences(of: "\"schema_version\": 1", with: "\"schema_version\": 7")
        #expect(Self.fileError(newer) == .unsupportedProfileVersion(7, path: "profiles[0]"))
        // Bad fields.
        let noMatrix = good.replacingOccurrences(of: "\"matrix\"", with: "\"matrics\"")
        #expect(Self.fileError(noMatrix) == .missingField("profiles[0].matrix"))
        let badModel = good.replacingOccurrences(of: "\"full\"", with: "\"fancy\"")
        #expect(Self.fileError(badModel)?.message.contains("unknown model \"fancy\"") == true)
        let singular = #"{"schema":"lodestone.calibration/1","profiles":[{"schema_version":1,"sensor":{"chip":"x"},"created":"t","model":"full","offset":[0,0,0],"matrix":[[1,0,0],[0,1,0],[0,0,0]],"field_strength":50}]}"#
        #expect(Self.fileError(singular)?.message.contains("profiles[0].matrix is invalid") == true)
        let shortOffset = singular.replacingOccurrences(of: "[[1,0,0],[0,1,0],[0,0,0]]", with: "[[1,0,0],[0,1,0],[0,0,1]]")
            .replacingOccurrences(of: "\"offset\":[0,0,0]", with: "\"offset\":[0,0]")
        #expect(Self.fileError(shortOffset) == .invalidField("profiles[0].offset", reason: "expected 3 numbers, found 2"))
        #expect(Self.fileError(#"{"schema":"lodestone.calibration/1"}"#) == .missingField("profiles"))
        #expect(Self.fileError(#"{"schema":"lodestone.calibration/1","profiles":{}}"#)?.message.contains("expected an array") == true)
    }

    @Test func everyTruncationAndByteFlipIsAnErrorNotACrash() {
        let good = Array(CalibrationProfileFile(profiles: [Self.sample(), Self.sample(chip: "mmc5603", bus: nil, address: nil)]).serialized().utf8)
        for end in 0..<good.count {
            let cut = Array(good[0..<end])
            let trailing = String(decoding: cut, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                _ = try CalibrationProfileFile.decode(cut)
                #expect(trailing.hasSuffix("}"), "a truncated file decoded")
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
        var rng = SplitMix64(seed: 12)
        for _ in 0..<3000 {
            var bytes = good
            for _ in 0..<3 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            if let file = try? CalibrationProfileFile.decode(bytes) {
                for p in file.profiles {
                    #expect(p.matrix.isFinite && p.offset.isFinite && p.fieldStrength > 0)
                }
            }
        }
    }

    @Test func resultMakesAProfile() throws {
        var rng = SplitMix64(seed: 2)
        let sensor = SyntheticSensor.random(&rng, fieldStrength: 49, offsetScale: 1, softIronFraction: 0.2, noise: 0.2)
        let raw = Synthetic.readings(sensor, attitudes: Synthetic.tumble(seconds: 60, rate: 50, seed: 3), seed: 4)
        let result = try CalibrationSolver().solve(raw).get()
        let profile = result.profile(sensor: SensorIdentity(chip: "qmc5883l", bus: 1, address: 13),
                                     created: "2025-06-01T00:00:00Z", unit: "uT")
        #expect(profile.apply(raw[0]) == result.fit.apply(raw[0]))
        #expect(profile.sampleCount == result.usedCount && profile.rejectedCount == result.rejectedCount)
        #expect(profile.model == result.fit.model)
        #expect(try CalibrationProfile.decode(profile.jsonValue.serialized()) == profile)
        #expect(profile.fit == result.fit)
    }

    @Test func deviationCardInterpolates() {
        let card = DeviationCard(corrections: [0, 10, 20, 30])   // at 0, 90, 180, 270
        #expect(card.correction(atHeading: 45) == 5)
        #expect(card.correction(atHeading: 315) == 15)
        #expect(card.correction(atHeading: -45) == 15)
        #expect(card.correction(atHeading: .nan) == 0)
        #expect(DeviationCard(corrections: []).correction(atHeading: 10) == 0)
    }
}
