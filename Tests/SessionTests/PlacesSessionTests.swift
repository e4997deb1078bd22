import Foundation
import Geodesy
import HeadingLog
import JSON
import Places
import Outputs
import Platform
@testable import Session
import Testing
import TestSupport

/// `places`, `goto`, `regions` and `where`'s nearest place, in process on a manual clock.
@Suite("places, goto, regions (in process)")
struct PlacesSessionTests {
    @Test("places near: the nearest first, with distance and direction from the place; the placemark in JSON")
    func near() throws {
        let h = try SessionHarness("places-near")
        let point = try GeoPoint(latitude: 52.52, longitude: 5.07)
        _ = try PlacesQuery(action: .near(point, count: 3)).run(runtime: h.runtime("places"))
        #expect(h.output.lines.count == 3)
        #expect(h.output.lines.first?.hasPrefix("1.73 km ENE of Edam, NL  52.51215, 5.04805  North Holland, The Netherlands  "
            + "Europe/Amsterdam  population 7380") == true, "\(h.output.text)")
        let j = try SessionHarness("places-near-json")
        _ = try PlacesQuery(action: .near(point, count: 2), json: true).run(runtime: j.runtime("places"))
        let first = try JSONValue.parse(try #require(j.output.lines.first))
        #expect(first["name"]?.string == "Edam" && first["country"]?.string == "NL")
        #expect(first["name_zh"]?.string == "埃丹" && first["region"]?.string == "North Holland")
        #expect(first["country_name"]?.string == "The Netherlands" && first["time_zone"]?.string == "Europe/Amsterdam")
        #expect(first["population"]?.double == 7380)
        let edam = try GeoPoint(latitude: try #require(first["lat_deg"]?.double), longitude: try #require(first["lon_deg"]?.double))
        let inverse = Geodesic.wgs84.inverse(edam, point)
        #expect(abs(try #require(first["distance_m"]?.double) - inverse.distance) <= 0.0005)
        #expect(abs(try #require(first["direction_deg"]?.double) - inverse.azimuth1) <= 1e-6)
        let z = try SessionHarness("places-near-zh")
        _ = try PlacesQuery(action: .near(point, count: 1), language: .zh).run(runtime: z.runtime("places"))
        #expect(z.output.text.hasPrefix("位于埃丹东北偏东1.73公里"), "\(z.output.text)")
    }

    @Test("places find: any alternate name, shown beside the place's own; the bigger place first")
    func findAlternateNames() throws {
        let h = try SessionHarness("places-find-zh")
        _ = try PlacesQuery(action: .find("北京", count: 1)).run(runtime: h.runtime("places"))
        #expect(h.output.text.hasPrefix("北京 → Beijing, Beijing, CN  39.9075, 116.39723  Beijing, China  Asia/Shanghai  population "),
                "\(h.output.text)")
        let j = try SessionHarness("places-find-json")
        _ = try PlacesQuery(action: .find("Peking", count: 1), json: true).run(runtime: j.runtime("places"))
        let object = try JSONValue.parse(try #require(j.output.lines.first))
        #expect(object["name"]?.string == "Beijing" && object["matched_name"]?.string == "Peking")
        #expect(object["country_name"]?.string == "China" && object["time_zone"]?.string == "Asia/Shanghai")
        let error = #expect(throws: UnknownPlace.self) { try PlacesQuery(action: .find("Pekingg", count: 3)).run(runtime: j.runtime("places")) }
        #expect(error?.message.contains("did you mean 'Beijing'?") == true)
    }

    @Test("places add, list, near, remove: the file in the config folder, written whole")
    func addListRemove() throws {
        let h = try SessionHarness("places-add")
        let runtime = h.runtime("places")
        let home = try UserPlace(name: "Home", latitude: 52.6505, longitude: 5.0705, radius: 200)
        _ = try PlacesQuery(action: .add(home)).run(runtime: runtime)
        _ = try PlacesQuery(action: .add(try UserPlace(name: "Boat, \"A\"", latitude: -33, longitude: 151))).run(runtime: runtime)
        let file = h.folder.path + "/config/lodestone/places.csv"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == "name,lat,lon,radius_m\nHome,52.6505,5.0705,200\n\"Boat, \"\"A\"\"\",-33,151,100\n")
        _ = try PlacesQuery(action: .near(try GeoPoint(latitude: 52.651, longitude: 5.071), count: 2)).run(runtime: runtime)
        #expect(h.output.lines.first?.hasPrefix("at Home") == true, "\(h.output.text)")
        #expect(throws: UnknownPlace.self) { try PlacesQuery(action: .remove("hom")).run(runtime: runtime) }
        _ = try PlacesQuery(action: .remove("HOME")).run(runtime: runtime)
        #expect(try PlacesFile.parse(try String(contentsOfFile: file, encoding: .utf8)).map(\.name) == ["Boat, \"A\""])
    }

    @Test("a corrupt places file is left alone and named")
    func corruptFile() throws {
        let h = try SessionHarness("places-corrupt")
        let folder = h.folder.path + "/config/lodestone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "Home,91,0\n".write(toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        let error = #expect(throws: PlacesStoreError.self) {
            try PlacesQuery(action: .add(try UserPlace(name: "x", latitude: 1, longitude: 1))).run(runtime: h.runtime("places"))
        }
        #expect(error?.exitCode == .dataError)
        #expect(try String(contentsOfFile: folder + "/places.csv", encoding: .utf8) == "Home,91,0\n")
    }

    @Test("places find: an unknown name suggests the nearest, exit 64")
    func unknownName() throws {
        let h = try SessionHarness("places-find")
        let error = #expect(throws: UnknownPlace.self) { try PlacesQuery(action: .find("Amsterdamm", count: 3)).run(runtime: h.runtime("places")) }
        #expect(error?.message.contains("did you mean 'Amsterdam'?") == true)
        #expect(error?.exitCode == .usage)
    }

    @Test("where: the fix, the nearest place, the town beside it and the placemark with the local time")
    func whereSaysTheNearestPlace() throws {
        let h = try SessionHarness("where-place")
        _ = try WhereQuery(source: .simulated, timeout: 5).run(runtime: h.runtime("where"))
        #expect(h.output.text.contains(", AU\n"), "\(h.output.text)")
        let edam = try GeoPoint(latitude: 52.52, longitude: 5.07)
        let e = try SessionHarness("where-edam")
        _ = try WhereQuery(source: .simulation(start: edam), timeout: 5).run(runtime: e.runtime("where"))
        #expect(e.output.lines.count == 2, "\(e.output.text)")
        #expect(e.output.lines.first?.contains(" of Edam, ") == true && e.output.lines.first?.contains(" km from Volendam, NL") == true,
                "\(e.output.text)")
        #expect(e.output.lines.last?.hasPrefix("Edam, North Holland, The Netherlands  Europe/Amsterdam  local time ") == true,
                "\(e.output.text)")
        let j = try SessionHarness("where-edam-json")
        _ = try WhereQuery(source: .simulation(start: edam), timeout: 5, json: true).run(runtime: j.runtime("where"))
        let object = try JSONValue.parse(j.output.text.trimmingCharacters(in: .newlines))
        #expect(object["near"]?["name"]?.string == "Edam" && object["town"]?["name"]?.string == "Volendam")
        #expect(object["near"]?["time_zone"]?.string == "Europe/Amsterdam")
        if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Amsterdam") {
            // December: CET, an hour ahead of the fix's UTC time.
            let local = try #require(object["local_time"]?.string)
            let utc = try #require(object["fix"]?["time"]?.string)
            #expect(ISO8601.parse(local) == ISO8601.parse(utc).map { $0.rounded(.down) }, "\(local) \(utc)")
        }
        // In Shanghai, in Chinese: the names in Chinese characters.
        let z = try SessionHarness("where-place-zh")
        _ = try WhereQuery(source: .simulation(start: try GeoPoint(latitude: 31.23, longitude: 121.47)), timeout: 5,
                           language: .zh).run(runtime: z.runtime("where"))
        let sentence = try #require(z.output.lines.first?.components(separatedBy: "  ").last)
        #expect(sentence.hasPrefix("位于"), "\(z.output.text)")
        #expect(!sentence.contains { $0.isASCII && $0.isLetter }, "\(z.output.text)")
        #expect(sentence.contains("黄浦") && sentence.contains("上海"), "\(z.output.text)")
        #expect(z.output.lines.last?.contains("Asia/Shanghai  当地时间") == true, "\(z.output.text)")
    }

    @Test("goto with the simulator: CSV rows of the geodesic to the target")
    func gotoCSV() throws {
        let h = try SessionHarness("goto")
        let target = try GeoPoint(latitude: -33.86, longitude: 151.2)
        let request = GotoRequest(destination: Destination(name: "t", point: target, radius: 10), source: .simulated,
                                  format: .csv, count: 6)
        #expect(try GotoSession.run(request, runtime: h.runtime("goto")) == .success)
        let lines = h.output.lines
        #expect(lines.first == "time,lat_deg,lon_deg,distance_m,bearing_deg,relative_bearing_deg,vmg_mps,eta_s,xte_m,arrived")
        #expect(lines.count == 7)
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(f.count == 10)
            let here = try GeoPoint(latitude: try #require(Double(f[1])), longitude: try #require(Double(f[2])))
            let inverse = Geodesic.wgs84.inverse(here, target)
            // The row's position is at the log's resolution, 1e-8° (about 1 mm).
            #expect(abs(try #require(Double(f[3])) - inverse.distance) <= 0.003)
            #expect(abs(try #require(Double(f[4])) - inverse.azimuth1) <= 1e-4)
            #expect(f[5] == "")   // no compass
            if let eta = Double(f[7]) { #expect(eta > 0 && (Double(f[6]) ?? 0) > 0) }
        }
        #expect(h.diagnostics.text.contains("going to t"))
    }

    @Test("goto says the arrival and stops on it when asked")
    func gotoArrives() throws {
        let h = try SessionHarness("goto-arrive")
        let here = try GeoPoint(latitude: -33.8694, longitude: 151.199)
        let request = GotoRequest(destination: Destination(name: "here", point: here, radius: 200), source: .simulated,
                                  language: .zh, stopOnArrival: true)
        #expect(try GotoSession.run(request, runtime: h.runtime("goto")) == .success)
        #expect(h.output.lines.count == 1 && h.output.text.hasSuffix("Z  已到达here\n"), "\(h.output.text)")
        #expect(h.diagnostics.text.contains("已到达here"))
    }

    @Test("regions with the simulator: the first state, dwell, and the environment of commands")
    func regions() throws {
        let h = try SessionHarness("regions")
        h.events.schedule(.stop, at: 6)
        let here = try GeoPoint(latitude: -33.8694, longitude: 151.199)
        let far = try GeoPoint(latitude: -33.0, longitude: 151.0)
        let request = RegionsRequest(regions: [Region(name: "here", centre: here, radius: 100),
                                               Region(name: "far,away", centre: far, radius: 100)],
                                     source: .simulated, dwell: 3)
        #expect(try RegionsSession.run(request, runtime: h.runtime("regions")) == .success)
        let lines = h.output.lines
        #expect(lines.first == "time,region,event,lat_deg,lon_deg,distance_m")
        #expect(lines[1].contains(",here,inside,"))
        #expect(lines[2].contains(",\"far,away\",outside,"))
        #expect(lines[3].contains(",here,dwell,"))
        #expect(lines.count == 4, "\(h.output.text)")
    }
}

@Suite("goto with the compass (in process)")
struct GotoCompassTests {
    @Test("the relative bearing is the geodesic bearing less the compass's true heading")
    func relativeBearingFromTheCompass() throws {
        let h = try SessionHarness("goto-compass")
        let target = try GeoPoint(latitude: -33.86, longitude: 151.2)
        var request = GotoRequest(destination: Destination(name: "t", point: target, radius: 10), source: .simulated,
                                  format: .csv, count: 5)
        request.compass = LiveRequest(sensors: SensorSelection(simulate: true), distanceFilter: 0)
        #expect(try GotoSession.run(request, runtime: h.runtime("goto")) == .success)
        let rows = h.output.lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 5)
        let relative = rows.compactMap { Double($0[5]) }
        #expect(!relative.isEmpty, "\(h.output.text)")
        #expect(relative.allSatisfy { $0 > -180 && $0 <= 180 })
    }

    @Test("ETAs read as a person says them, days for long ones, and a crawl never traps")
    func durations() {
        #expect(formatDuration(38, language: .en) == "38 s")
        #expect(formatDuration(12 * 60, language: .en) == "12 min")
        #expect(formatDuration(2 * 3600 + 5 * 60, language: .en) == "2 h 05 min")
        #expect(formatDuration(47 * 3600 + 50 * 60, language: .en) == "47 h 50 min")
        #expect(formatDuration(3 * 86_400 + 4 * 3600, language: .en) == "3 d 04 h")
        #expect(formatDuration(3 * 86_400 + 4 * 3600, language: .zh) == "3天04小时")
        #expect(formatDuration(2e7 / 1e-12, language: .en) == "over 1000 d")
        #expect(formatDuration(.infinity, language: .en) == "?")
        #expect(formatDuration(-1, language: .zh) == "?")
    }

    @Test func turnWords() {
        #expect(formatTurn(35.2) == "turn right 35°")
        #expect(formatTurn(-10) == "turn left 10°")
        #expect(formatTurn(1) == "ahead")
        #expect(formatTurn(-35, language: .zh) == "左转35°")
    }
}

@Suite("watch and log with --region (in process)")
struct LiveRegionTests {
    let here = try! GeoPoint(latitude: -33.8694, longitude: 151.199)
    let far = try! GeoPoint(latitude: -33.0, longitude: 151.0)

    @Test("piped watch says the region's first state on stderr")
    func pipedWatch() throws {
        let h = try SessionHarness("watch-region")
        h.events.schedule(.stop, at: 3)
        var live = LiveRequest(sensors: SensorSelection(simulate: true))
        live.regions = [Region(name: "here", centre: here, radius: 100), Region(name: "far", centre: far, radius: 100)]
        #expect(try WatchSession.run(WatchRequest(live: live), runtime: h.runtime("watch")) == .success)
        #expect(h.diagnostics.text.contains("region inside here ("), "\(h.diagnostics.text)")
        #expect(h.diagnostics.text.contains("region outside far ("))
        #expect(!h.output.text.contains("region"), "heading lines stay as they were")
    }

    @Test("the dashboard shows the newest region event, in the dashboard's language")
    func dashboard() throws {
        let h = try SessionHarness("watch-region-dashboard")
        let terminal = h.attachTerminal(columns: 100, rows: 32)
        terminal.type("q", at: 3.0)
        var live = LiveRequest(sensors: SensorSelection(simulate: true))
        live.regions = [Region(name: "here", centre: here, radius: 100)]
        #expect(try WatchSession.run(WatchRequest(live: live, language: .zh), runtime: h.runtime("watch")) == .success)
        #expect(h.output.text.contains("在here内"), "the notice line")
        #expect(h.output.text.contains("位于Pyrmont"), "the nearest place beside the position")
    }

    @Test("log says region events on stderr")
    func log() throws {
        let h = try SessionHarness("log-region")
        var live = LiveRequest(sensors: SensorSelection(simulate: true), distanceFilter: 0)
        live.regions = [Region(name: "far", centre: far, radius: 100)]
        let request = LogRequest(live: live, file: LogSession.Options(path: h.path("r.csv")), duration: 2)
        #expect(try LogRecording.run(request, runtime: h.runtime("log")) == .success)
        #expect(h.diagnostics.text.contains("region outside far ("), "\(h.diagnostics.text)")
    }
}

@Suite("watch --goto (in process)")
struct WatchGotoTests {
    @Test("the dashboard marks the target on the rose and shows the way to it")
    func dashboardMarker() throws {
        let h = try SessionHarness("watch-goto")
        let terminal = h.attachTerminal(columns: 100, rows: 32)
        terminal.type("q", at: 3.0)
        var request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true)))
        request.destination = Destination(name: "Opera", point: try GeoPoint(latitude: -33.8568, longitude: 151.2153), radius: 50)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        #expect(h.output.text.contains("◆"), "the marker on the rose")
        #expect(h.output.text.contains("→ Opera 2."), "the distance to it")
        let plain = try SessionHarness("watch-no-goto")
        let t2 = plain.attachTerminal(columns: 100, rows: 32)
        t2.type("q", at: 3.0)
        _ = try WatchSession.run(WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true))), runtime: plain.runtime("watch"))
        #expect(!plain.output.text.contains("◆"), "no marker without --goto")
    }
}

/// A sink that keeps what it is given (stands in for the MQTT client).
private final class RecordingSink: ServeSink {
    let label = "recording"
    var regions: [RegionReport] = []
    var updates = 0
    var dropped: Int { 0 }
    func publish(_ report: HeadingReport, fix: FixReport?) { updates += 1 }
    func publish(region: RegionReport) { regions.append(region) }
    func close() {}
}

@Suite("serve --region (in process)")
struct ServeRegionTests {
    let here = try! GeoPoint(latitude: -33.8694, longitude: 151.199)
    let far = try! GeoPoint(latitude: -33.0, longitude: 151.0)

    @Test("region events are said, and published to JSON lines and MQTT with the fix that decided them")
    func published() throws {
        let h = try SessionHarness("serve-region")
        var live = LiveRequest(sensors: SensorSelection(simulate: true))
        live.regions = [Region(name: "here", centre: here, radius: 100), Region(name: "far", centre: far, radius: 100)]
        let request = ServeRequest(live: live, rate: 5, duration: 3, json: ["-"],
                                   mqtt: [try MQTTEndpoint.parse("mqtt://127.0.0.1/boat")])
        let mqtt = RecordingSink()
        _ = try ServeSession.run(request, runtime: h.runtime("serve"), sockets: FakeSockets(clock: h.clock),
                                 mqtt: { _, _ in mqtt })
        #expect(h.diagnostics.text.contains("region inside here ("), "\(h.diagnostics.text)")
        #expect(mqtt.updates > 0)
        #expect(mqtt.regions.map(\.region) == ["here", "far"])
        #expect(mqtt.regions.map(\.event) == ["inside", "outside"])
        #expect(mqtt.regions.map(\.state) == ["inside", "outside"])
        let first = try #require(mqtt.regions.first)
        let lat = try #require(first.latitude), lon = try #require(first.longitude)
        #expect(abs(lat - here.latitude) < 0.01 && abs(lon - here.longitude) < 0.01)
        #expect(first.distance < 100)
        let lines = try h.output.lines.map { try JSONValue.parse($0) }
        let regionLines = lines.filter { $0["region"] != nil }
        #expect(regionLines.map { $0["region"]?.string } == ["here", "far"])
        #expect(regionLines.map { $0["event"]?.string } == ["inside", "outside"])
        #expect(regionLines.allSatisfy { $0["lat_deg"]?.double != nil && $0["distance_m"]?.double != nil && $0["time"]?.string != nil })
        #expect(lines.count - regionLines.count == mqtt.updates, "every heading update is there too")
    }

    @Test("a region's name is made one MQTT topic level")
    func topicLevel() {
        #expect(MQTTSink.topicLevel("home") == "home")
        #expect(MQTTSink.topicLevel("a/b+c#d") == "a_b_c_d")
        #expect(MQTTSink.topicLevel("bad\u{1B}[2J") == "bad_[2J")
        #expect(MQTTSink.topicLevel("") == "_")
        #expect(MQTTSink.topicLevel("北港") == "北港")
    }
}
