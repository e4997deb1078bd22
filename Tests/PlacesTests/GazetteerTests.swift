import Foundation
import Geodesy
import Linear
import Testing
@testable import Places

@Suite struct GazetteerTests {
    let gazetteer = Gazetteer.builtIn

    @Test func holdsEveryPlaceOfFifteenThousand() {
        #expect(gazetteer.count == 34_006)
        var minimum = Int.max
        for i in stride(from: 0, to: gazetteer.count, by: 97) { minimum = min(minimum, gazetteer.population(at: i)) }
        #expect(minimum >= 15_000)
    }

    @Test func decodesAPlace() throws {
        let hits = NameSearch(gazetteer: gazetteer).find("Hoorn", count: 1)
        let hoorn = try #require(hits.first)
        #expect(hoorn.place.name == "Hoorn")
        #expect(hoorn.place.country == "NL")
        #expect(hoorn.place.region == "North Holland")
        #expect(abs(hoorn.place.latitude - 52.6425) < 0.01 && abs(hoorn.place.longitude - 5.0597) < 0.01)
        #expect(hoorn.match == .exact)
    }

    /// The k-d tree answers what a scan over every place answers, at random points (fixed seed),
    /// at the poles and across the antimeridian.
    @Test func nearestAgreesWithAScan() throws {
        var rng = SplitMix64(seed: 18)
        var points: [(Double, Double)] = [(90, 0), (-90, 0), (0, 180), (0, -180), (64.8, -179.9), (-16.5, 179.95)]
        for _ in 0..<20 {
            points.append((Double.random(in: -90...90, using: &rng), Double.random(in: -180...180, using: &rng)))
        }
        let search = NearbySearch(gazetteer: gazetteer)
        for (lat, lon) in points {
            let point = try GeoPoint(latitude: lat, longitude: lon)
            let found = search.nearest(to: point, count: 5)
            var all: [(Double, Int)] = []
            for i in 0..<gazetteer.count {
                let p = gazetteer.position(at: i)
                all.append((Geodesic.wgs84.inverse(try GeoPoint(latitude: p.latitude, longitude: p.longitude), point).distance, i))
            }
            all.sort { $0 < $1 }
            #expect(found.map(\.distance) == all.prefix(5).map(\.0), "at \(lat), \(lon)")
        }
    }

    /// Distances and directions are Karney's geodesic: against GeographicLib's GeodTest values, to
    /// 1 mm and 1e-6°, through a user place at point 1 and a query at point 2.
    @Test func agreesWithGeodTest() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geodesic/GeodTest-short.dat")
        let text = try String(contentsOf: url, encoding: .utf8)
        var checked = 0
        for row in text.split(separator: "\n") where checked < 400 {
            let f = row.split(separator: " ").compactMap { Double($0) }
            guard f.count >= 7, abs(f[1]) <= 180, abs(f[4]) <= 180 else { continue }
            // A radius round the Earth holds every point, so the user place comes first.
            let user = try UserPlace(name: "p", latitude: f[0], longitude: f[1], radius: 4e7)
            let near = NearbySearch(gazetteer: gazetteer, userPlaces: [user])
                .nearest(to: try GeoPoint(latitude: f[3], longitude: f[4]), count: 1)
            let mine = try #require(near.first)
            #expect(mine.source == .user(0))
            #expect(abs(mine.distance - f[6]) <= 1e-3)
            if f[6] > 1 {
                let d = abs(relativeAngle(try #require(mine.direction) - f[2]))
                #expect(d <= 1e-6, "azimuth \(f[2]) got \(mine.direction ?? .nan)")
            }
            checked += 1
        }
        #expect(checked == 400)
    }

    @Test func userPlacesComeFirstWithinTheirRadius() throws {
        let point = try GeoPoint(latitude: 52.65, longitude: 5.07)
        let garden = try UserPlace(name: "Garden", latitude: 52.6505, longitude: 5.0705, radius: 200)
        let far = try UserPlace(name: "Far", latitude: 52.0, longitude: 5.0, radius: 200)
        let near = NearbySearch(gazetteer: gazetteer, userPlaces: [far, garden]).nearest(to: point, count: 3)
        #expect(near.map(\.place.name) == ["Garden", "Hoorn", near[2].place.name])
        #expect(near[0].isInside)
        #expect(!near.contains { $0.place.name == "Far" })
    }

    @Test func directionIsFromThePlaceToThePoint() throws {
        let hoorn = try #require(NameSearch(gazetteer: gazetteer).find("hoorn", count: 1).first).place
        // 3 km north-east of Hoorn.
        let east = try Geodesic.wgs84.direct(from: try GeoPoint(latitude: hoorn.latitude, longitude: hoorn.longitude),
                                         azimuth: 45, distance: 3000)
        let near = NearbySearch(gazetteer: gazetteer).nearest(to: east.point, count: 1)
        #expect(near[0].place.name == "Hoorn")
        #expect(abs(near[0].distance - 3000) < 1e-6)
        #expect(abs(try #require(near[0].direction) - 45) < 1e-9)
    }
}

@Suite struct NameSearchTests {
    @Test func foldsCaseAndAccents() {
        #expect(foldName("Zürich") == "zurich")
        #expect(foldName("  São-Paulo ") == "sao paulo")
        #expect(foldName("ŁÓDŹ") == "lodz")
        #expect(foldName("Zu\u{308}rich") == "zurich")
    }

    @Test func findsAccentInsensitiveRankedByMatchThenPopulation() throws {
        let search = NameSearch()
        let zurich = try #require(search.find("ZURICH", count: 3).first)
        #expect(zurich.place.country == "CH" && zurich.match == .exact)
        let sao = try #require(search.find("são paulo", count: 1).first)
        #expect(sao.place.country == "BR")
        let paris = search.find("paris", count: 5)
        #expect(paris.first?.place.country == "FR")
        #expect(paris.allSatisfy { $0.match == .exact } || paris.map(\.match) == paris.map(\.match).sorted())
        let prefix = search.find("amsterd", count: 3)
        #expect(prefix.first?.place.name == "Amsterdam" && prefix.first?.match == .prefix)
    }

    @Test func userPlacesRankBeforeEqualMatches() throws {
        let home = try UserPlace(name: "Paris", latitude: 1, longitude: 2, radius: 10)
        let hits = NameSearch(userPlaces: [home]).find("paris", count: 2)
        #expect(hits.first?.userPlace == home)
    }

    @Test func suggestsTheNearestName() {
        #expect(NameSearch().suggestion(for: "Amsterdan") == "Amsterdam")
        // A very long name gets neither a match nor a suggestion, and no long wait for one.
        let long = String(repeating: "a", count: 100_000)
        #expect(NameSearch().find(long, count: 3).isEmpty)
        #expect(NameSearch().suggestion(for: long) == nil)
    }
}

@Suite struct PlacesFileTests {
    @Test func roundTripsWithQuotingAndDefaults() throws {
        let text = "name,lat,lon,radius_m\n# comment\nHome,52.37,4.89,50\n\"Boat, \"\"Aurora\"\"\",-33.5,151.25\n"
        let places = try PlacesFile.parse(text)
        #expect(places.map(\.name) == ["Home", "Boat, \"Aurora\""])
        #expect(places[1].radius == UserPlace.defaultRadius)
        #expect(try PlacesFile.parse(PlacesFile.serialize(places)) == places)
    }

    @Test func rejectsBadLinesWithTheirNumber() {
        #expect(throws: PlaceError.line(number: 2, "latitude 95 is outside -90…90 degrees")) {
            try PlacesFile.parse("name,lat,lon\nX,95,0\n")
        }
        #expect(throws: PlaceError.self) { try PlacesFile.parse("X,1,2,0\n") }
        #expect(throws: PlaceError.self) { try PlacesFile.parse("X,1\n") }
        #expect(throws: PlaceError.self) { try PlacesFile.parse("\"X,1,2\n") }
    }

    @Test func stripsControlCharactersFromNames() throws {
        let places = try PlacesFile.parse("Ho\u{1B}[2Jme,1,2\n")
        #expect(places[0].name == "Ho[2Jme")
    }
}
