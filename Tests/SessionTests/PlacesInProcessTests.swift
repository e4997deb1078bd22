import Foundation
import Geodesy
import Places
import Platform
@testable import Session
import Testing
import TestSupport

/// `places` and `where` as the commands run them, in process: near as JSON against an independent
/// geodesic, where's simulated receiver starting at --location, and the user's places file with a
/// name that holds a terminal escape, and goto's unknown or impossible targets. (Moved from the
/// spawned-binary suite, which keeps the usage errors of the option parsers of places, goto,
/// regions, where and track.)
@Suite("places and where, the commands' queries in process")
struct PlacesInProcessTests {
    func places(_ h: SessionHarness, _ action: PlacesAction, json: Bool = false) -> CommandRun {
        h.run("places") { try PlacesQuery(action: action, json: json).run(runtime: $0) }
    }

    @Test("places near --json: every key, The Rocks first, Vincenty's distance and azimuth from the place, nearest first")
    func nearAsJSONIsTheGeodesicFromThePlace() throws {
        let h = try SessionHarness("places-near-json")
        let result = places(h, .near(try GeoPoint(latitude: -33.8568, longitude: 151.2153), count: 3), json: true)
        #expect(result.status == .success, "\(result.stderr)")
        let objects = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 3)
        let first = try #require(objects.first)
        #expect(Set(first.keys) == ["name", "ascii_name", "name_zh", "region", "country", "country_name", "time_zone",
                                    "population", "lat_deg", "lon_deg", "radius_m", "distance_m", "direction_deg",
                                    "matched_name", "match"])
        #expect(first["name"] as? String == "The Rocks" && first["country"] as? String == "AU")
        #expect(first["region"] as? String == "New South Wales" && first["time_zone"] as? String == "Australia/Sydney")
        let lat = try #require(first["lat_deg"] as? Double), lon = try #require(first["lon_deg"] as? Double)
        let check = vincentyInverse(lat, lon, -33.8568, 151.2153)
        #expect(abs(try #require(first["distance_m"] as? Double) - check.distance) < 0.001)
        #expect(abs(remainder(try #require(first["direction_deg"] as? Double) - check.azimuth, 360)) < 1e-6)
        let distances = objects.compactMap { $0["distance_m"] as? Double }
        #expect(distances == distances.sorted())
    }

    @Test("where --simulate --location 52.52,5.07 --json: the simulated receiver starts there, near Edam")
    func whereStartsTheSimulatedReceiverAtTheLocation() throws {
        let h = try SessionHarness("where-json")
        let result = h.run("where") {
            try WhereQuery(source: .simulation(start: try GeoPoint(latitude: 52.52, longitude: 5.07)), timeout: 30, json: true)
                .run(runtime: $0)
        }
        #expect(result.status == .success, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let fix = try #require(object["fix"] as? [String: Any])
        let lat = try #require(fix["lat_deg"] as? Double), lon = try #require(fix["lon_deg"] as? Double)
        #expect(abs(lat - 52.52) < 0.01 && abs(lon - 5.07) < 0.01, "the simulated receiver starts at --location")
        #expect((object["near"] as? [String: Any])?["name"] as? String == "Edam")
    }

    @Test("places add, list, near, remove edit the file in the config folder; an escape in a name is removed")
    func addListRemoveEditTheFileInTheConfigFolder() throws {
        let h = try SessionHarness("places-file")
        let quay = try UserPlace(name: "Quay", latitude: -33.8587, longitude: 151.2140, radius: 300)
        #expect(places(h, .add(quay)).status == .success)
        let bad = try UserPlace(name: "Bad\u{1B}[31mName", latitude: 1, longitude: 2, radius: UserPlace.defaultRadius)
        #expect(places(h, .add(bad)).status == .success)
        let list = places(h, .list(namesOnly: false))
        #expect(list.stdout == "Quay  -33.8587, 151.214  radius 300.0 m\nBad[31mName  1, 2  radius 100.0 m\n", "\(list.stdout.debugDescription)")
        let near = places(h, .near(try GeoPoint(latitude: -33.8590, longitude: 151.2141), count: 2))
        #expect(near.stdout.hasPrefix("at Quay  "), "\(near.stdout)")
        #expect(places(h, .remove("quay")).status == .success)
        let text = try String(contentsOfFile: h.folder.path + "/config/lodestone/places.csv", encoding: .utf8)
        #expect(text == "name,lat,lon,radius_m\nBad[31mName,1,2,100\n", "\(text.debugDescription)")
    }

    @Test("goto's target, as the command looks it up: an unknown name suggests the nearest, a position out of range is refused, exit 64")
    func gotoTargets() throws {
        let h = try SessionHarness("goto-targets")
        for (target, hint) in [("Amsterdamm", "did you mean 'Amsterdam'?"), ("91,0", "not a position")] {
            let r = h.run("goto") { runtime in
                let userPlaces = try PlacesStore(environment: runtime.environment)?.load() ?? []
                _ = try DestinationLookup.resolve(target, radius: nil, userPlaces: userPlaces)
                return .success
            }
            #expect(r.status == .usage, "\(target): \(r.stderr)")
            #expect(r.stderr.contains(hint), "\(target): \(r.stderr)")
        }
    }
}
