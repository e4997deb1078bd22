import Testing
import Foundation
import Linear
import JSON
@testable import Calibration

/// A profile that cannot give a finite heading is refused with its reason, and a broken single
/// profile document names the field rather than "not a calibration file".
@Suite("Profile validation and loading errors")
struct ProfileValidationTests {
    static func document(offset: Vector3 = Vector3(12, -3, 40), matrix: Matrix3 = .identity, field: Double = 49.6) -> String {
        CalibrationProfile(sensor: SensorIdentity(chip: "recording"), offset: offset, matrix: matrix, fieldStrength: field,
                           residualPercent: 0.5, coveragePercent: 90, spreadBeforePercent: 30, spreadAfterPercent: 0.5,
                           wobblePercent: 1, sampleCount: 800, rejectedCount: 0, model: .full, created: "2026-12-01T08:00:00Z",
                           unit: "uT").jsonValue.serialized(pretty: true)
    }

    static func error(_ text: String) -> ProfileDecodingError? {
        do { _ = try CalibrationProfileFile.decodeFileOrProfile(text); return nil } catch { return error }
    }

    @Test func anOffsetBeyondAnySensorIsRefused() {
        let e = Self.error(Self.document(offset: Vector3(1e308, 0, 0)))
        guard case let .invalidField(path, reason)? = e else { Issue.record("\(String(describing: e))"); return }
        #expect(path == "profile.offset")
        #expect(reason.contains("beyond any sensor's range"))
        #expect(e?.message.contains("run the calibration again") == true)
    }

    @Test func aMatrixWithAbsurdGainsIsRefused() {
        for m in [Matrix3.identity * 1e200, Matrix3.identity * 1e-200, Matrix3.diagonal(Vector3(1e5, 1, 1e-5))] {
            let e = Self.error(Self.document(matrix: m))
            guard case let .invalidField(path, reason)? = e else { Issue.record("\(String(describing: e))"); continue }
            #expect(path == "profile.matrix")
            #expect(reason.contains("headings would not be finite") || reason.contains("not invertible"), "\(reason)")
        }
    }

    @Test func aGoodSingleProfileAndAGoodFileBothLoad() throws {
        let single = try CalibrationProfileFile.decodeFileOrProfile(Self.document())
        #expect(single.profiles.count == 1)
        let file = CalibrationProfileFile(profiles: [try CalibrationProfile.decode(Self.document())])
        #expect(try CalibrationProfileFile.decodeFileOrProfile(file.serialized()).profiles.count == 1)
        // Gauss-sized and counts-sized profiles are fine.
        #expect(Self.error(Self.document(offset: Vector3(0.15, 0.39, -0.06), field: 0.31)) == nil)
        #expect(Self.error(Self.document(offset: Vector3(-1800, 2500, 900), matrix: .identity * 0.05, field: 1500)) == nil)
    }

    @Test func aBrokenSingleProfileNamesTheFieldNotTheFormat() {
        let text = Self.document().replacingOccurrences(of: "\"created\"", with: "\"made\"")
        #expect(Self.error(text) == .missingField("profile.created"))
        let badModel = Self.document().replacingOccurrences(of: "\"full\"", with: "\"fancy\"")
        #expect(Self.error(badModel)?.message.contains("unknown model \"fancy\"") == true)
        #expect(Self.error(badModel)?.message.contains("not a Lodestone calibration file") == false)
        // Something that is neither is still "not a calibration file".
        #expect(Self.error(#"{"class":"TPV"}"#) == .notACalibrationFile(found: nil))
    }

    /// A hostile string field is shown cut short, never whole (a 100 KB model name went whole to
    /// stderr), and without its control characters.
    @Test func aLongStringFieldIsNotQuotedWhole() {
        let long = "\\u001b[2J" + String(repeating: "x", count: 100_000)
        let badModel = Self.document().replacingOccurrences(of: "\"full\"", with: "\"\(long)\"")
        let message = Self.error(badModel)?.message ?? ""
        #expect(message.contains("unknown model \"[2Jxxxxxxxxxxxxxxxxx…\""), "\(message.prefix(300))")
        #expect(message.count < 300)
        let schema = #"{"schema":"\#(String(repeating: "y", count: 100_000))","profiles":[]}"#
        #expect((Self.error(schema)?.message.count ?? 0) < 300)
        let nested = #"{"schema":[\#(String(repeating: "1,", count: 50_000))1],"profiles":[]}"#
        #expect((Self.error(nested)?.message.count ?? 0) < 300)
    }

    /// Huge finite values refused at load with the field and the reason (issue: hostile inputs).
    @Test func hugeFiniteValuesAreRefusedWithTheirField() throws {
        func edited(_ edit: (inout [String: Any]) -> Void) throws -> String {
            var object = try #require(JSONSerialization.jsonObject(with: Data(Self.document().utf8)) as? [String: Any])
            edit(&object)
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        let cases: [(String, (inout [String: Any]) -> Void, String)] = [
            ("profile.yaw_offset_degrees", { $0["yaw_offset_degrees"] = 1e308 }, "not an alignment within ±360°"),
            ("profile.field_strength", { $0["field_strength"] = 1e308 }, "beyond what any magnetometer reports"),
            ("profile.deviation_degrees", { $0["deviation_degrees"] = [0, 1e308, 0, 0] }, "not within ±180°"),
            ("profile.accelerometer.offset", { $0["accelerometer"] = ["offset": [1e308, 0, 0], "scale": [1, 1, 1]] },
             "beyond any accelerometer's range"),
            ("profile.accelerometer.scale", { $0["accelerometer"] = ["offset": [0, 0, 0], "scale": [1e200, 1, 1]] },
             "a gain outside"),
            ("profile.matrix", { $0["matrix"] = [[1e200, 0, 0], [0, 1e200, 0], [0, 0, 1e200]] }, "scales readings by"),
        ]
        for (field, edit, reason) in cases {
            let e = Self.error(try edited(edit))
            guard case let .invalidField(path, why)? = e else { Issue.record("\(field): \(String(describing: e))"); continue }
            #expect(path == field)
            #expect(why.contains(reason), "\(why)")
        }
        // Ordinary values in the same fields still load.
        let fine = try edited {
            $0["yaw_offset_degrees"] = -12.5
            $0["deviation_degrees"] = [0.5, -1, 2, 0]
            $0["accelerometer"] = ["offset": [0.01, -0.02, 0.03], "scale": [1.01, 0.99, 1]]
        }
        #expect(Self.error(fine) == nil)
    }
}
