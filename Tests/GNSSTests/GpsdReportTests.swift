import Foundation
import GNSS
import JSON
import Testing

/// The folder of the NMEA fixtures (logs and gpsd's .chk output).
let nmeaFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/nmea")

/// The JSON lines of a .chk file.
func chkJSONLines(_ log: String) throws -> [String] {
    let text = try String(contentsOf: nmeaFixtures.appendingPathComponent(log + ".chk"), encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("{") }
}

@Suite("TPV parsing")
struct GpsdReportTests {
    let fullTPV = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2035-05-26T09:15:04.000Z","ept":0.005,"lat":48.217476667,"lon":8.414500000,"altHAE":813.7000,"altMSL":766.3000,"alt":766.3000,"epx":6.838,"epy":7.897,"epv":23.000,"track":179.3200,"magtrack":181.8672,"magvar":2.5,"speed":4.342,"climb":0.100,"eps":15.79,"epc":46.00,"geoidSep":47.400,"eph":13.300,"sep":24.700,"epd":12.5}"#

    @Test func decodesEveryFieldOfAFullTPV() throws {
        guard case .tpv(let fix) = try GpsdReport.parse(fullTPV) else {
            Issue.record("not a TPV"); return
        }
        #expect(fix.mode == .threeD)
        #expect(fix.time == 2_063_783_704)   // 2035-05-26T09:15:04Z
        #expect(fix.lat == 48.217476667)
        #expect(fix.lon == 8.4145)
        #expect(fix.altHAE == 813.7)
        #expect(fix.altMSL == 766.3)
        #expect(fix.course == 179.32)        // track, not magtrack
        #expect(fix.speed == 4.342)
        #expect(fix.climb == 0.1)
        #expect(fix.eph == 13.3)
        #expect(fix.epx == 6.838)
        #expect(fix.epy == 7.897)
        #expect(fix.epv == 23)
        #expect(fix.eps == 15.79)
        #expect(fix.epd == 12.5)
        #expect(fix.device == "/dev/pts/1")
        #expect(fix.hasPosition)
        #expect(fix.horizontalError == 13.3)
    }

    @Test func absentFieldsAreNilNotNaN() throws {
        guard case .tpv(let fix) = try GpsdReport.parse(#"{"class":"TPV","mode":1}"#) else {
            Issue.record("not a TPV"); return
        }
        #expect(fix.mode == .noFix)
        #expect(fix.time == nil && fix.lat == nil && fix.lon == nil && fix.speed == nil && fix.course == nil)
        #expect(fix.eph == nil && fix.horizontalError == nil && fix.device == nil)
        #expect(!fix.hasPosition)
    }

    @Test func magneticFieldsAreIgnored() throws {
        let line = #"{"class":"TPV","mode":2,"time":"2026-01-01T00:00:00Z","lat":1,"lon":2,"magtrack":45.5,"magvar":-12}"#
        guard case .tpv(let fix) = try GpsdReport.parse(line) else { Issue.record("not a TPV"); return }
        #expect(fix.course == nil)
    }

    @Test func identifiesReportsByClassNotByFields() throws {
        // A SKY report with TPV-like members is not a fix.
        let sky = #"{"class":"SKY","lat":10,"lon":20,"mode":3,"satellites":[]}"#
        #expect(try GpsdReport.parse(sky) == .other("SKY"))
        #expect(try GpsdReport.parse(#"{"lat":10,"lon":20,"mode":3}"#) == .other(""))
        #expect(try GpsdReport.parse(#"{"class":"VERSION","release":"3.22","proto_major":3}"#) == .version("3.22"))
        #expect(try GpsdReport.parse(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#)
            == .devices(["/dev/ttyACM0"]))
        #expect(try GpsdReport.parse(#"{"class":"DEVICES","devices":[]}"#) == .devices([]))
        #expect(try GpsdReport.parse(#"{"class":"ERROR","message":"Unrecognized request"}"#) == .error("Unrecognized request"))
    }

    @Test func malformedLinesThrowAnActionableError() {
        #expect(throws: GNSSError.self) { try GpsdReport.parse("$GPRMC,,V,,,,,,,,,,N*53") }
        do {
            _ = try GpsdReport.parse(#"{"class":"TPV","mode":"#)
            Issue.record("accepted a truncated line")
        } catch {
            #expect(error.message.contains("not JSON"))
            #expect(error.exitCode == .dataError)
        }
    }

    @Test func wrongTypesAndImpossibleValuesAreTreatedAsAbsent() throws {
        let line = #"{"class":"TPV","mode":3,"time":"yesterday","lat":95.0,"lon":"east","eph":-1,"speed":-3,"track":"x","epx":2}"#
        guard case .tpv(let fix) = try GpsdReport.parse(line) else { Issue.record("not a TPV"); return }
        #expect(fix.time == nil)
        #expect(fix.lat == nil && fix.lon == nil)   // a position needs both valid coordinates
        #expect(fix.eph == nil && fix.speed == nil && fix.course == nil)
        #expect(fix.horizontalError == 2)           // max(epx, epy) falls back to epx alone
        #expect(!fix.hasPosition)
    }

    @Test func deviceNamesAreSanitized() throws {
        let line = #"{"class":"TPV","device":"\u001b[2J/dev/ttyUSB0\u0007","mode":1}"#
        guard case .tpv(let fix) = try GpsdReport.parse(line) else { Issue.record("not a TPV"); return }
        #expect(fix.device == "[2J/dev/ttyUSB0")
    }

    @Test func horizontalErrorPrefersEphThenLargerOfEpxEpy() {
        #expect(Fix(eph: 4, epx: 9, epy: 9).horizontalError == 4)
        #expect(Fix(epx: 3, epy: 7).horizontalError == 7)
        #expect(Fix(epy: 5).horizontalError == 5)
    }

    @Test(arguments: ["bt451.log", "haicom-305N.log", "nl2008u.log", "stationary-jitter.log", "course-reversal.log"])
    func everyLineGpsdProducedParsesWithoutNaN(log: String) throws {
        var tpvs = 0
        for line in try chkJSONLines(log) {
            let report = try GpsdReport.parse(line)
            let raw = try JSONValue.parse(line)
            guard case .tpv(let fix) = report else {
                #expect(raw["class"]?.string != "TPV")
                continue
            }
            tpvs += 1
            #expect(raw["class"]?.string == "TPV")
            let values = [fix.time, fix.lat, fix.lon, fix.altHAE, fix.altMSL, fix.course, fix.speed, fix.climb,
                          fix.eph, fix.epx, fix.epy, fix.epv, fix.eps, fix.epd]
            #expect(values.allSatisfy { $0?.isFinite ?? true })
            #expect(fix.lat == raw["lat"]?.double)
            #expect(fix.mode.rawValue == max(1, raw["mode"]?.int ?? 0))
        }
        #expect(tpvs > 10)
    }
}
