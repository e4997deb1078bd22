import Foundation
import Platform
import Sensors
@testable import Session
import Testing
import TestSupport

/// `detect --simulate --sensor NAME` and `watch --simulate --sensor NAME --once` for the boards Pi
/// owners have: each is named, its board guessed, and watch reads it with its own partner chips.
@Suite("boards on the simulated bus: detect names them, watch reads them")
struct BoardDetectionTests {
    func detect(_ selection: SensorSelection, json: Bool) throws -> String {
        let h = try SessionHarness("boards-detect")
        #expect(try DetectionQuery(simulation: selection, json: json).run(runtime: h.runtime("detect")) == .success)
        return h.output.text
    }

    /// (magnetometer to emulate, accelerometer/gyro expected beside it, board note expected).
    static let boards: [(String, AccelerometerKind, String)] = [
        ("cmps14", .mpu6050, "Probably a CMPS14 or CMPS12 compass module (at 0x60; its raw magnetometer is read)."),
        ("lsm9ds1", .lsm9ds1, "Probably a Sense HAT or BerryIMU v2 (LSM9DS1 at 0x1c and 0x6a)."),
        ("mpu9250", .mpu9250, "Probably a GY-9250 or another MPU-9250/MPU-9255 board (at 0x68, AK8963 magnetometer behind it)."),
        ("lsm6dsl", .lsm6dsl, "Probably a BerryIMU v3 (LSM6DSL at 0x6a, LIS3MDL at 0x1c)."),
        ("bno055", .bno055, "Probably a BNO055 breakout such as Adafruit 2472 (at 0x28; read raw, in AMG mode)."),
        ("sense-hat", .lsm9ds1, "Probably a Sense HAT or BerryIMU v2 (LSM9DS1 at 0x1c and 0x6a)."),
    ]

    /// `--simulate --sensor NAME` as the option group reads it: the chip, and a board's own partner.
    func selection(_ name: String) throws -> SensorSelection {
        let alias = try #require(SensorAlias.named(name))
        return SensorSelection(simulate: true, sensor: alias.chip,
                               accelerometer: alias.accelerometer.map { .kind($0) } ?? .automatic)
    }

    @Test("detect names the magnetometer, its partner, the board, and what watch will use", arguments: boards)
    func detectTable(name: String, partner: AccelerometerKind, board: String) throws {
        let chip = try #require(SensorAlias.named(name)).chip
        let text = try detect(try selection(name), json: false)
        #expect(text.contains(board), "\(text)")
        #expect(text.contains("Commands will use the \(chip.displayName) on bus 1"), "\(text)")
        #expect(text.contains("with the \(partner.displayName) accelerometer at "
            + hexAddress(partner.defaultAddress) + " for tilt and its gyroscope for the rotation rate"), "\(text)")
    }

    @Test("detect --json carries the selection and the board", arguments: boards)
    func detectJSON(name: String, partner: AccelerometerKind, board: String) throws {
        let chip = try #require(SensorAlias.named(name)).chip
        let text = try detect(try selection(name), json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["magnetometer"] as? [String: Any])?["name"] as? String == chip.rawValue)
        #expect((object["accelerometer"] as? [String: Any])?["name"] as? String == partner.rawValue)
        let boards = try #require(object["boards"] as? [String])
        #expect(boards.contains { board.contains($0) }, "\(boards)")
    }

    @Test("watch --once reads one heading through the board's own chips", arguments: boards)
    func watchOnce(name: String, partner: AccelerometerKind, board: String) throws {
        let h = try SessionHarness("boards-watch")
        let request = WatchRequest(live: LiveRequest(sensors: try selection(name), gnss: .none),
                                   once: true)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(h.output.lines.count == 1)
        #expect(headingValue(h.output.text) != nil, "\(h.output.text)")
    }
}
