import Foundation
import Testing
import TestSupport

@Suite("lodestone detect (end to end)")
struct DetectCommandTests {
    var machineHasI2C: Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("i2c-") } ?? false
    }

    @Test("no I²C on this machine: how to enable it on a Pi, exit 69")
    func noBus() throws {
        try #require(!machineHasI2C, "this machine has an I²C bus; the no-bus path cannot be tested here")
        let result = try runLodestone(["detect"])
        #expect(result.status == 69, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("dtparam=i2c_arm=on"))
        #expect(result.stderr.contains("raspi-config"))
        #expect(result.stderr.contains("--simulate"))
        #expect(result.stdout.isEmpty)
        let json = try runLodestone(["detect", "--json"])
        #expect(json.status == 69)
        let one = try runLodestone(["detect", "--bus", "3"])
        #expect(one.status == 69)
        #expect(one.stderr.contains("/dev/i2c-3 does not exist"))
    }

    @Test("--simulate lists the emulated QMC5883L in a table")
    func simulatedTable() throws {
        let result = try runLodestone(["detect", "--simulate"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        for column in ["bus", "address", "chip", "confidence", "evidence"] { #expect(header.contains(column)) }
        let row = try #require(lines.dropFirst().first)
        #expect(row.hasPrefix("1 "))
        #expect(row.contains("0x0d") && row.contains("QMC5883L") && row.contains("high"))
        #expect(row.contains("reg 0x0d = 0xff"))
        #expect(result.stdout.contains("Commands will use the QMC5883L on bus 1 at 0x0d"))
    }

    @Test("--json parses as JSON and carries the rows")
    func simulatedJSON() throws {
        let result = try runLodestone(["detect", "--simulate", "--accelerometer", "none", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
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
        let result = try runLodestone(["detect", "--simulate", "--sensor", name, "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let magnetometer = try #require(object["magnetometer"] as? [String: Any], "\(result.stdout)")
        #expect(magnetometer["name"] as? String == name)
        let devices = try #require(object["devices"] as? [[String: Any]])
        #expect(devices.contains { $0["option_name"] as? String == name && $0["confidence"] as? String == "high" })
    }

    @Test("an accelerometer beside it: --accelerometer mpu6050")
    func withAccelerometer() throws {
        let result = try runLodestone(["detect", "--simulate", "--accelerometer", "mpu6050"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("0x68") && result.stdout.contains("MPU-6050"))
        #expect(result.stdout.contains("with the MPU-6050 accelerometer at 0x68 for tilt"))
    }

    @Test("bad combinations exit 64")
    func usage() throws {
        let bus = try runLodestone(["detect", "--simulate", "--bus", "1"])
        #expect(bus.status == 64)
        let sensor = try runLodestone(["detect", "--sensor", "qmc5883l"])
        #expect(sensor.status == 64)
        #expect(sensor.stderr.contains("--simulate"))
        let unknown = try runLodestone(["detect", "--simulate", "--sensor", "hmc5983"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("qmc5883l") && unknown.stderr.contains("ak09916"))
    }

    @Test("watch uses the same selection: --sensor, --orientation, one reading with --once")
    func watchSelection() throws {
        let plain = try runLodestone(["watch", "--simulate", "--once"])
        #expect(plain.status == 0)
        for arguments in [["--sensor", "lis3mdl"], ["--sensor", "bmm150", "--orientation", "roll180"],
                          ["--orientation", "x-left-z-down", "--accelerometer", "mpu6050"]] {
            let result = try runLodestone(["watch", "--simulate", "--once"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 1)
            #expect(result.stdout.contains("°"))
        }
        let bad = try runLodestone(["watch", "--simulate", "--once", "--orientation", "sideways"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("x-forward-z-up") && bad.stderr.contains("yaw90"))
        let address = try runLodestone(["watch", "--simulate", "--address", "0x0d"])
        #expect(address.status == 64)
    }
}
