import Foundation
import Platform
import Sensors
@testable import Session
import Testing
import TestSupport

/// `detect` on the simulator's bus, in process: the emulated chips identified by their registers.
@Suite("detection on the simulated bus")
struct DetectionQueryTests {
    /// What `detect --simulate` prints for this selection.
    func detect(_ selection: SensorSelection, json: Bool = false) throws -> String {
        let h = try SessionHarness("detect")
        #expect(try DetectionQuery(simulation: selection, json: json).run(runtime: h.runtime("detect")) == .success)
        return h.output.text
    }

    @Test("--simulate lists the emulated QMC5883L in a table")
    func simulatedTable() throws {
        let result = try detect(SensorSelection(simulate: true))
        let lines = result.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        for column in ["bus", "address", "chip", "confidence", "evidence"] { #expect(header.contains(column)) }
        let row = try #require(lines.dropFirst().first)
        #expect(row.hasPrefix("1 "))
        #expect(row.contains("0x0d") && row.contains("QMC5883L") && row.contains("high"))
        #expect(row.contains("reg 0x0d = 0xff"))
        #expect(result.contains("Commands will use the QMC5883L on bus 1 at 0x0d"))
    }

    @Test("--json parses as JSON and carries the rows")
    func simulatedJSON() throws {
        let result = try detect(SensorSelection(simulate: true, accelerometer: .none), json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any])
        #expect(object["simulated"] as? Bool == true)
        #expect(object["buses"] as? [Int] == [1])
        let devices = try #require(object["devices"] as? [[String: Any]])
        try #require(devices.count == 1)
        #expect(devices[0]["chip"] as? String == "QMC5883L")
        #expect(devices[0]["address"] as? Int == 13)
        #expect(devices[0]["address_hex"] as? String == "0x0d")
        #expect(devices[0]["confidence"] as? String == "high")
        #expect(devices[0]["category"] as? String == "magnetometer")
        #expect((devices[0]["evidence"] as? String)?.contains("reg 0x0c = 0x01") == true)
        let magnetometer = try #require(object["magnetometer"] as? [String: Any])
        #expect(magnetometer["name"] as? String == "qmc5883l")
        #expect(object["accelerometer"] is NSNull)
    }

    @Test("--simulate --sensor: each chip is identified as itself", arguments: [
        "qmc5883l", "hmc5883l", "lis3mdl", "lis2mdl", "mmc5983ma", "bmm150", "ak09916",
    ])
    func eachChip(name: String) throws {
        let result = try detect(SensorSelection(simulate: true, sensor: ChipKind(rawValue: name)), json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any])
        let magnetometer = try #require(object["magnetometer"] as? [String: Any], "\(result)")
        #expect(magnetometer["name"] as? String == name)
        let devices = try #require(object["devices"] as? [[String: Any]])
        #expect(devices.contains { $0["option_name"] as? String == name && $0["confidence"] as? String == "high" })
    }

    @Test("an accelerometer beside it: --accelerometer mpu6050")
    func withAccelerometer() throws {
        let result = try detect(SensorSelection(simulate: true, accelerometer: .kind(.mpu6050)))
        #expect(result.contains("0x68") && result.contains("MPU-6050"))
        #expect(result.contains("with the MPU-6050 accelerometer at 0x68 for tilt"))
    }

    @Test("watch opens the same selection: other chips, orientations and accelerometers give one reading",
          arguments: [(ChipKind.lis3mdl, nil), (.bmm150, "roll180"), (nil, "x-left-z-down")] as [(ChipKind?, String?)])
    func watchSelection(chip: ChipKind?, orientation: String?) throws {
        var selection = SensorSelection(simulate: true, sensor: chip, accelerometer: orientation == nil ? .automatic : .kind(.mpu6050))
        if let orientation {
            selection.orientation = try MountingOrientation.named(orientation)
            selection.orientationGiven = true
        }
        let h = try SessionHarness("watch-selection")
        let request = WatchRequest(live: LiveRequest(sensors: selection, gnss: .none), once: true)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(h.output.lines.count == 1)
        #expect(headingValue(h.output.text) != nil, "\(h.output.text)")
    }
}
