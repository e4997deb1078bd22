import JSON
import Outputs
import Testing

/// The one vocabulary's records: directions never round up to 360, and the one-shot answers
/// (declination, geodesic, detection, replay) come out with their declared keys in order.
@Suite("ReportJSON records")
struct ReportJSONTests {
    func keys(_ value: JSONValue) -> [String] {
        guard case .object(let fields) = value else { return [] }
        return fields.map(\.0)
    }

    @Test("a direction just below 360 (or just below 0) is 0 at the output's resolution, never 360")
    func directionsWrapAfterRounding() {
        var report = HeadingReport(wall: 1_795_000_000, monotonic: 1, magneticHeading: 359.99996)
        report.trueHeading = -0.0001
        report.variation = 0
        let json = ReportJSON.heading(report)
        #expect(json["heading_mag_deg"]?.double == 0)
        #expect(json["heading_true_deg"]?.double == 0)
        report.magneticHeading = 359.9994
        #expect(ReportJSON.heading(report)["heading_mag_deg"]?.double == 359.999)
        let fix = FixReport(wall: 1_795_000_000, mode: "3d", latitude: 1, longitude: 2, altitude: nil, speed: 1, course: 359.99999,
                            horizontalError: 3)
        #expect(ReportJSON.fix(fix)["course_deg"]?.double == 0)
        let replay = ReplayRecord(monotonic: 0.5, magneticHeading: 359.99999, trueHeading: nil, accuracy: nil, rollAccuracy: nil,
                                  pitchAccuracy: nil, rawMagneticHeading: 720.5, declination: nil, declinationSource: "none",
                                  fieldStrength: 48, roll: nil, pitch: nil, flags: [], rateOfTurn: nil, quaternion: nil, refinement: nil)
        #expect(ReportJSON.replay(replay)["heading_mag_deg"]?.double == 0)
        #expect(ReportJSON.replay(replay)["heading_mag_raw_deg"]?.double == 0.5)
    }

    @Test("declination, geodesic, detection and replay records have their declared keys, every one, in order")
    func oneShotKeys() {
        let declination = DeclinationRecord(decimalYear: 2026.5, latitude: -33.87, longitude: 151.2, heightKm: 0, declination: 12.8,
                                            declinationUncertainty: 0.4, declinationChange: 0.01, inclination: -64, inclinationChange: 0.02,
                                            total: 57_000, horizontal: 25_000, north: 24_000, east: 5500, down: -51_000, totalChange: -30,
                                            gridVariation: nil, zone: "normal", extrapolated: false)
        let d = ReportJSON.declination(declination)
        #expect(keys(d) == ReportJSON.declinationKeys)
        #expect(d["grid_variation_deg"] == .null && d["declination_deg"]?.double == 12.8)
        for inverse in [true, false] {
            let g = GeodesicRecord(inverse: inverse, latitude1: 1, longitude1: 2, latitude2: 3, longitude2: 4, distance: 5, azimuth1: 6,
                                   azimuth2: 7)
            let json = ReportJSON.geodesic(g)
            #expect(keys(json) == ReportJSON.geodesicKeys(inverse: inverse))
            #expect(json["lat2_deg"]?.double == 3 && json["distance_m"]?.double == 5)
        }
        let detection = DetectionRecord(simulated: true, buses: [1],
                                        devices: [.init(bus: 1, address: 13, addressHex: "0x0d", chip: "QMC5883L", category: "magnetometer",
                                                        optionName: nil, confidence: "high", evidence: "reg 0x0d = 0xff")],
                                        boards: [], magnetometer: nil, accelerometer: nil, unopened: [.init(bus: 2, error: "no bus")])
        let json = ReportJSON.detection(detection)
        #expect(keys(json) == ["simulated", "buses", "devices", "boards", "magnetometer", "accelerometer", "unopened"])
        guard case .array(let devices)? = json["devices"] else { Issue.record("no devices"); return }
        #expect(keys(devices[0]) == ["bus", "address", "address_hex", "chip", "category", "option_name", "confidence", "evidence"])
        #expect(devices[0]["option_name"] == .null && json["magnetometer"] == .null)
        let replay = ReplayRecord(monotonic: 0.5, magneticHeading: 10, trueHeading: nil, accuracy: nil, rollAccuracy: nil,
                                  pitchAccuracy: nil, rawMagneticHeading: 10, declination: nil, declinationSource: "none",
                                  fieldStrength: 48, roll: nil, pitch: nil, flags: [], rateOfTurn: nil, quaternion: [1, 0, 0, 0],
                                  refinement: nil)
        #expect(keys(ReportJSON.replay(replay)) == ReportJSON.replayKeys)
        #expect(ReportJSON.replay(replay)["qw"]?.double == 1 && ReportJSON.replay(replay)["refine"] == .null)
    }
}
