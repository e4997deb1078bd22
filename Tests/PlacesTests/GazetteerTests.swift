import Foundation
import Geodesy
import Linear
import Testing
@testable import Places

@Suite struct GazetteerTests {
    let gazetteer = Gazetteer.builtIn

    @Test func holdsEveryPlaceOfFiveHundred() throws {
        #expect(gazetteer.count == 234_908)
        // cities500.json: GeoNames' places of more than 500 people (195,940) and the seats of
        // administrative divisions of any size (unknown population: 30,680; below 500: 8,288).
        var counts = (unknown: 0, small: 0, large: 0)
        for i in 0..<gazetteer.count {
            let p = gazetteer.population(at: i)
            if p == 0 { counts.unknown += 1 } else if p < 500 { counts.small += 1 } else { counts.large += 1 }
        }
        let found: [Int] = [counts.unknown, counts.small, counts.large]
        #expect(found == [30_680, 8_288, 195_940] as [Int])
        let edam = try #require(NameSearch(gazetteer: gazetteer).find("Edam", count: 1).first).place
        #expect(edam.population == 7380 && edam.country == "NL")
    }

    @Test func decodesAPlacemark() throws {
        let hits = NameSearch(gazetteer: gazetteer).find("Hoorn", count: 1)
        let hoorn = try #require(hits.first)
        #expect(hoorn.place.name == "Hoorn")
        #expect(hoorn.place.country == "NL")
        #expect(hoorn.place.countryName == "The Netherlands")
        #expect(hoorn.place.region == "North Holland")
        #expect(hoorn.place.timeZone == "Europe/Amsterdam")
        #expect(hoorn.place.population > 40_000)
        #expect(abs(hoorn.place.latitude - 52.6425) < 0.01 && abs(hoorn.place.longitude - 5.0597) < 0.01)
        #expect(hoorn.match == .exact && hoorn.matchedName == nil)
        #expect(gazetteer.countryName("CN") == "China" && gazetteer.countryName("ZZ") == "")
    }

    /// Near Edam the nearest place is Edam (7,380 people, 1.7 km), and the town beside it Volendam.
    @Test func namesEdamAndVolendam() throws {
        let point = try GeoPoint(latitude: 52.52, longitude: 5.07)
        let search = NearbySearch(gazetteer: gazetteer)
        let near = search.nearest(to: point, count: 2)
        #expect(near.map(\.place.name) == ["Edam", "Volendam"])
        #expect(abs(near[0].distance - 1727) < 1)
        let town = try #require(search.town(near: point, beside: near[0]))
        #expect(town.place.name == "Volendam" && abs(town.distance - 2781) < 2)
        // In a city the city itself is the town: nothing to add.
        let dam = try GeoPoint(latitude: 52.3731, longitude: 4.8926)
        let amsterdam = try #require(search.nearest(to: dam, count: 1).first)
        #expect(amsterdam.place.name == "Amsterdam")
        #expect(search.town(near: dam, beside: amsterdam) == nil)
    }

    /// The tree's fast sine and cosine of fixed-unit angles against libm's.
    @Test func fixedDegreeTrigAgreesWithLibm() {
        // Whole degrees, their neighbours, the ends of the range and seeded values between.
        var units: [Int32] = [0, 1, -1, 99_999, 100_000, -100_000, 9_000_000, -9_000_000, 18_000_000, -18_000_000,
                              17_999_999, -17_999_999, 4_500_000, 12_345_678, -8_765_432]
        var rng = SplitMix64(seed: 5)
        while units.count < 20_000 { units.append(Int32(Int.random(in: -18_000_000...18_000_000, using: &rng))) }
        var worst = 0.0
        for u in units {
            let r = Double(u) / 1e5 * .pi / 180
            let (s, c) = FixedDegreeTrig.sinCos(u)
            worst = max(worst, abs(s - sin(r)), abs(c - cos(r)))
        }
        // Both sides carry the rounding of an angle near ±π (about 4e-16, in the reference's radians
        // and in the table's whole degrees) and a few units in the last place; a wrong quadrant,
        // sign or series term would be 1e-9 or more. 2e-15 on the unit sphere is 13 nm on the Earth.
        #expect(worst <= 2e-15, "largest difference from libm: \(worst)")
    }

    /// The nearest place by geodesic distance, from the k-d tree, against a scan over every place
    /// of the gazetteer (Karney's inverse for every place the sphere cannot rule out), on
    /// thousands of seeded points: uniform over the Earth, near places, at the poles and along
    /// the antimeridian.
    @Test func nearestAgreesWithAScanOverEveryPlace() throws {
        var rng = SplitMix64(seed: 31)
        var points: [(Double, Double)] = [(90, 0), (-90, 0), (90, 123), (-90, -45), (89.9999, 180), (-89.9, -180),
                                          (0, 180), (0, -180), (64.8, -179.9), (64.8, 179.9), (-16.5, 179.95),
                                          (-16.5, -179.95), (52.52, 5.07), (31.23, 121.47),
                                          // Far from every place: Point Nemo, the southern ocean, Antarctica.
                                          (-48.88, -123.39), (-51.6, 15.1), (-79.1, -163.2), (-70.9, -122.4)]
        for k in 0..<40 {
            let lat = -80 + 4 * Double(k)
            points.append((lat, 180))
            points.append((lat, -179.999_99))
            points.append((lat, 179.999_99))
        }
        while points.count < 1600 {
            let lat = asin(2 * Double.random(in: 0...1, using: &rng) - 1) * 180 / .pi
            points.append((lat, Double.random(in: -180...180, using: &rng)))
        }
        while points.count < 3000 {
            // Within a few kilometres of a place, where neighbours are close together.
            let p = gazetteer.position(at: Int.random(in: 0..<gazetteer.count, using: &rng))
            points.append((max(-90, min(90, p.latitude + Double.random(in: -0.03...0.03, using: &rng))),
                           p.longitude + Double.random(in: -0.03...0.03, using: &rng)))
        }
        let scan = GazetteerScan(gazetteer)
        #expect(gazetteer.hasCellBounds)
        let search = NearbySearch(gazetteer: gazetteer)
        // The same bytes without the cells' boxes: the walk prunes by the splits alone.
        let unbounded = NearbySearch(gazetteer: try #require(Gazetteer(bytes: gazetteer.base, size: gazetteer.size)))
        #expect(!unbounded.gazetteer.hasCellBounds)
        var failures = 0
        for (i, (lat, lon)) in points.enumerated() {
            let point = try GeoPoint(latitude: lat, longitude: lon)
            let k = i % 10 == 0 ? 5 : 1
            let found = search.nearest(to: point, count: k)
            let expected = scan.nearest(to: point, count: k)
            if found.map(\.distance) != expected.map(\.distance) {
                failures += 1
                Issue.record("at \(lat), \(lon): \(found.map(\.distance)) against \(expected.map(\.distance))")
            }
            if i % 3 == 0, unbounded.nearest(to: point, count: k).map(\.distance) != expected.map(\.distance) {
                failures += 1
                Issue.record("without the cells' boxes, at \(lat), \(lon): not the scan's nearest")
            }
            if failures > 5 { break }
        }
    }

    /// Every place lies inside the box of every top cell of the tree that holds it, with its unit
    /// vector as the search computes it, and each top cell holds its own place's position: a stale
    /// or wrong `gazetteer_bounds.bin` would let the search pass over a cell that holds the nearest
    /// place, or visit a place that is not there. Bounds for other bytes are refused.
    @Test func cellBoundsHoldTheirPlaces() throws {
        let bounds = try #require(gazetteer.cellBounds)
        #expect(bounds.depth >= 8)
        var outside = 0, checked = 0
        for i in 0..<gazetteer.count {
            let v = gazetteer.unitVector(i)
            var (lo, hi, depth, cell) = (0, gazetteer.count, 0, 0)
            while depth < bounds.depth {
                let box = bounds.box(cell)
                checked += 1
                let mid = (lo + hi) >> 1
                if bounds.position(cell) != gazetteer.fixedPosition(mid) {
                    outside += 1
                    Issue.record("cell \(cell) does not hold the position of its place \(mid)")
                }
                if !(box.low.0 <= v.x && v.x <= box.high.0 && box.low.1 <= v.y && v.y <= box.high.1
                     && box.low.2 <= v.z && v.z <= box.high.2) {
                    outside += 1
                    if outside <= 3 { Issue.record("place \(i) is outside the box of cell \(cell)") }
                }
                if i == mid { break }
                (lo, hi, cell) = i < mid ? (lo, mid, 2 * cell + 1) : (mid + 1, hi, 2 * cell + 2)
                depth += 1
            }
        }
        #expect(outside == 0 && checked > gazetteer.count * 8)
        // The boxes are the places' own, far smaller than the cube the splits start from: most
        // cells of the last stored depth span less than 0.1 (600 km) along every axis.
        let last = ((1 << (bounds.depth - 1)) - 1)..<((1 << bounds.depth) - 1)
        let small = last.filter { cell in
            let box = bounds.box(cell)
            return max(box.high.0 - box.low.0, box.high.1 - box.low.1, box.high.2 - box.low.2) < 0.1
        }
        #expect(small.count * 4 > last.count * 3)
        // Bounds made for another gazetteer (another count) are left unused.
        #expect(CellBounds(bytes: bounds.base - CellBounds.headerSize, size: CellBounds.headerSize + ((1 << bounds.depth) - 1) * CellBounds.cellSize,
                           placeCount: gazetteer.count) != nil)
        #expect(CellBounds(bytes: bounds.base - CellBounds.headerSize, size: CellBounds.headerSize + ((1 << bounds.depth) - 1) * CellBounds.cellSize,
                           placeCount: gazetteer.count - 1) == nil)
        #expect(CellBounds(bytes: bounds.base - CellBounds.headerSize, size: CellBounds.headerSize + CellBounds.cellSize,
                           placeCount: gazetteer.count) == nil)
    }

    /// The lower bound that orders the geodesic re-ranking never exceeds Karney's distance, and is
    /// within 0.34 % of it (the ellipsoid's second eccentricity) where it applies: seeded pairs
    /// anywhere, near each other, across the antimeridian and nearly opposite across a pole.
    @Test func geodesicLowerBoundHoldsAndIsTight() throws {
        var rng = SplitMix64(seed: 77)
        var pairs: [((Double, Double), (Double, Double))] = [((89.9, 0), (89.9, 180)), ((89.99, 10), (89.99, -170.5)),
                                                             ((-89.5, 45), (-89.5, -135)), ((0, 179.99), (0, -179.99)),
                                                             ((52.52, 5.07), (52.51215, 5.04805)), ((10, 20), (10, 20))]
        while pairs.count < 5000 {
            let a = (asin(2 * Double.random(in: 0...1, using: &rng) - 1) * 180 / .pi, Double.random(in: -180...180, using: &rng))
            let near = pairs.count % 2 == 0
            let b = near ? (max(-90, min(90, a.0 + Double.random(in: -20...20, using: &rng))),
                            a.1 + Double.random(in: -20...20, using: &rng))
                : (asin(2 * Double.random(in: 0...1, using: &rng) - 1) * 180 / .pi, Double.random(in: -180...180, using: &rng))
            pairs.append((a, b))
        }
        var above = 0, loose = 0
        for (a, b) in pairs {
            let s = Geodesic.wgs84.inverse(try GeoPoint(latitude: a.0, longitude: a.1), try GeoPoint(latitude: b.0, longitude: b.1)).distance
            let bound = NearbySearch.geodesicLowerBound(AuxiliaryPoint(latitude: a.0, longitude: a.1),
                                                        AuxiliaryPoint(latitude: b.0, longitude: b.1))
            if bound > s {
                above += 1
                Issue.record("bound \(bound) above the geodesic \(s) from \(a) to \(b)")
            }
            if bound > 0, s < 15_000_000, bound < s * (1 - 0.0034) - 0.01 { loose += 1 }
        }
        #expect(above == 0 && loose == 0, "\(loose) bounds looser than 0.34 %")
    }

    /// Chinese names: the CJK name in China, Taiwan, Hong Kong and Macau (traditional characters
    /// in the last three), elsewhere a Han name as Chinese writes it.
    @Test func chineseNames() throws {
        let search = NameSearch(gazetteer: gazetteer)
        func zh(_ name: String, _ country: String) throws -> String? {
            try #require(search.find(name, count: 20).first { $0.place.country == country && $0.match == .exact }).place.chineseName
        }
        #expect(try zh("Beijing", "CN") == "北京")
        #expect(try zh("Shanghai", "CN") == "上海")
        #expect(try zh("Suzhou", "CN") == "苏州")
        #expect(try zh("Edam", "NL") == "埃丹")
        #expect(try zh("Volendam", "NL") == "福伦丹")
        #expect(try zh("Taipei", "TW") == "臺北市")
        #expect(try zh("Tokyo", "JP") == "东京")
        let huangpu = try #require(NearbySearch(gazetteer: gazetteer).nearest(to: try GeoPoint(latitude: 31.23, longitude: 121.47), count: 1).first)
        #expect(huangpu.place.chineseName.map { $0.unicodeScalars.allSatisfy { (0x4E00...0x9FFF).contains($0.value) } } == true)
        #expect(huangpu.place.name(zh: true) == huangpu.place.chineseName)
        #expect(huangpu.place.name(zh: false) == huangpu.place.name)
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
            let user = try UserPlace(name: "p", latitude: f[0], longitude: f[1], radius: UserPlace.maximumRadius)
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
        // 1 km north-east of Hoorn.
        let east = try Geodesic.wgs84.direct(from: try GeoPoint(latitude: hoorn.latitude, longitude: hoorn.longitude),
                                         azimuth: 45, distance: 1000)
        let near = NearbySearch(gazetteer: gazetteer).nearest(to: east.point, count: 1)
        #expect(near[0].place.name == "Hoorn")
        #expect(abs(near[0].distance - 1000) < 1e-6)
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

    /// Any alternate name finds its place, shown with the name matched; among equal matches the
    /// bigger place comes first, and so does its suggestion.
    @Test func findsAlternateNamesBiggerPlaceFirst() throws {
        let search = NameSearch()
        let beijing = try #require(search.find("北京", count: 1).first)
        #expect(beijing.place.name == "Beijing" && beijing.place.country == "CN")
        #expect(beijing.matchedName == "北京" && beijing.match == .exact)
        let peking = try #require(search.find("Peking", count: 3).first)
        #expect(peking.place.name == "Beijing" && peking.matchedName == "Peking")
        let munich = try #require(search.find("Munchen", count: 1).first)
        #expect(munich.place.name == "Munich" && munich.matchedName == "München")
        #expect(try #require(search.find("蘇州", count: 1).first).place.population > 5_000_000)
        #expect(search.suggestion(for: "Pekingg") == "Beijing")
        #expect(search.suggestion(for: "Amsterdamm") == "Amsterdam")
    }

    /// The byte-wise fold of the search agrees with `foldName` on the gazetteer's own names.
    @Test func byteFoldAgreesWithFoldName() {
        let gazetteer = Gazetteer.builtIn
        var folded: [UInt8] = []
        var fast = 0
        for i in stride(from: 0, to: gazetteer.count, by: 13) {
            gazetteer.forEachName(at: i) { bytes in
                if NameSearch.foldFast(bytes, into: &folded) {
                    fast += 1
                    let expected = foldName(String(decoding: bytes, as: UTF8.self))
                    #expect(String(decoding: folded, as: UTF8.self) == expected)
                }
                return true
            }
        }
        #expect(fast > 20_000)
    }

    @Test func suggestsTheNearestName() {
        #expect(NameSearch().suggestion(for: "Amsterdan") == "Amsterdam")
        // One edit from Pekin (Illinois, 32,000 people) and from Peking (an alternate name of
        // Beijing): the bigger place is suggested, by its own name.
        #expect(NameSearch().suggestion(for: "Pekinn") == "Beijing")
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

    /// A name given twice (as `foldName` matches names: case and accents aside) is refused with
    /// both lines: lookups by name would silently never reach the second.
    @Test func aNameGivenTwiceIsRefusedWithBothLines() throws {
        #expect(throws: PlaceError.line(number: 4, "the name 'home' is already used on line 2 "
                                         + "(names match ignoring case and accents); rename or remove one")) {
            try PlacesFile.parse("name,lat,lon\nHome,52.37,4.89\nBoat,1,2\nhome,10,20\n")
        }
        #expect(throws: PlaceError.self) { try PlacesFile.parse("Zürich,47.37,8.54\nZURICH,47,8\n") }
        #expect(try PlacesFile.parse("Home,1,2\nHome 2,3,4\n").count == 2)
    }

    /// A field that is not a number is named by its line and column, never quoted (a 100 KB field
    /// was written whole to stderr).
    @Test func aFieldThatIsNotANumberIsNotQuoted() {
        let long = String(repeating: "x", count: 100_000)
        #expect(throws: PlaceError.line(number: 2, "the latitude is not a number")) {
            try PlacesFile.parse("name,lat,lon\nX,\(long),0\n")
        }
        #expect(throws: PlaceError.line(number: 1, "the radius is not a number")) {
            try PlacesFile.parse("X,1,2,\u{1B}[2Jnan\n")
        }
    }

    /// A radius beyond half the Earth's circumference holds every point: `goto` said "arrived"
    /// 15,000 km away. Refused, as `--radius` refuses it.
    @Test func aRadiusBeyondTheEarthIsRefused() throws {
        #expect(throws: PlaceError.line(number: 1, PlaceError.radius(1e308).message)) {
            try PlacesFile.parse("X,1,2,1e308\n")
        }
        #expect(try PlacesFile.parse("X,1,2,20040000\n")[0].radius == UserPlace.maximumRadius)
    }

    @Test func stripsControlCharactersFromNames() throws {
        let places = try PlacesFile.parse("Ho\u{1B}[2Jme,1,2\n")
        #expect(places[0].name == "Ho[2Jme")
    }
}

/// The brute force the k-d tree is checked against: every place's great-circle angle on the
/// sphere, then Karney's inverse for every place the angle cannot rule out (the geodesic is at
/// least 6,335 km per radian of that angle and at most 6,400 km: the ellipsoid's radii of
/// curvature bound it).
struct GazetteerScan {
    let gazetteer: Gazetteer
    let xyz: [Double]

    init(_ gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        var xyz: [Double] = []
        xyz.reserveCapacity(gazetteer.count * 3)
        for i in 0..<gazetteer.count {
            let p = gazetteer.position(at: i)
            let phi = p.latitude * .pi / 180, lambda = p.longitude * .pi / 180
            xyz += [cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi)]
        }
        self.xyz = xyz
    }

    func nearest(to point: GeoPoint, count k: Int) -> [(distance: Double, index: Int)] {
        let phi = point.latitude * .pi / 180, lambda = point.longitude * .pi / 180
        let q = (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
        var dots = [Double](repeating: 0, count: gazetteer.count)
        xyz.withUnsafeBufferPointer { v in
            dots.withUnsafeMutableBufferPointer { d in
                for i in 0..<d.count { d[i] = v[3 * i] * q.0 + v[3 * i + 1] * q.1 + v[3 * i + 2] * q.2 }
            }
        }
        func geodesic(_ i: Int) -> Double {
            let p = gazetteer.position(at: i)
            return Geodesic.wgs84.inverse(try! GeoPoint(latitude: p.latitude, longitude: p.longitude), point).distance
        }
        // The k places nearest on the sphere bound the k-th geodesic distance from above.
        var closest: [Int] = []
        for i in dots.indices where closest.count < k || dots[i] > dots[closest[closest.count - 1]] {
            closest.append(i)
            closest.sort { dots[$0] > dots[$1] }
            if closest.count > k { closest.removeLast() }
        }
        let bound = closest.map(geodesic).max()! + 1
        let angle = bound / 6_335_000
        let minimumDot = cos(min(Double.pi, angle))
        var all: [(distance: Double, index: Int)] = []
        for i in dots.indices where dots[i] >= minimumDot - 1e-12 { all.append((geodesic(i), i)) }
        all.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        return Array(all.prefix(k))
    }
}
