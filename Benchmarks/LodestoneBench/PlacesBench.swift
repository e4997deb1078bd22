// Places benchmarks: `places near` on random points anywhere on Earth over every GeoNames place of
// 500 people (the goal: at most 50 µs per answer after start-up), the nearest place with the town
// beside it as `where` says it, near places (points within 3 km of a place, where the tree is
// dense), points far from every place (remote: the southern ocean, Antarctica, the Arctic) and the
// slowest answers (tail), forward lookup by name (Latin and Chinese), and the first query's cost (start-up). The
// dashboard's peak RSS is `watch.rss` (Benchmarks/places/watch_rss.py, run by `make bench`).
import Geodesy
import Glibc
import Linear
import Places

func runPlacesBenchmarks() {
    var rng = SplitMix64(seed: 18)
    var points: [GeoPoint] = []
    while points.count < 4096 {
        let lat = asin(2 * rng.nextUnit() - 1) * 180 / Double.pi
        let lon = 360 * rng.nextUnit() - 180
        if let p = try? GeoPoint(latitude: lat, longitude: lon) { points.append(p) }
    }
    // The first query on a fresh process: pages of the gazetteer touched for the first time.
    var first = timespec()
    clock_gettime(CLOCK_MONOTONIC, &first)
    let search = NearbySearch(gazetteer: .builtIn)
    blackHole(search.nearest(to: points[0], count: 5).first?.distance ?? 0)
    var after = timespec()
    clock_gettime(CLOCK_MONOTONIC, &after)
    let firstMicroseconds = Double(after.tv_sec - first.tv_sec) * 1e6 + Double(after.tv_nsec - first.tv_nsec) / 1e3
    reportFigure("places.first_query", extra: [("us", jsonNumber(firstMicroseconds, 1)),
                                                ("places", "\(Gazetteer.builtIn.count)")])

    bench("places.near", iterations: 20_000, extra: [("count", "5"), ("goal_ns", "50000")]) { n in
        var total = 0.0
        for i in 0..<n {
            let found = search.nearest(to: points[i & 4095], count: 5)
            total += found.first?.distance ?? 0
        }
        blackHole(total)
    }
    bench("places.near_one", iterations: 20_000, extra: [("count", "1")]) { n in
        var total = 0.0
        for i in 0..<n { total += search.nearest(to: points[i & 4095], count: 1).first?.distance ?? 0 }
        blackHole(total)
    }
    // Far from every place (the nearest is often 1,000-4,000 km away): the southern ocean and
    // Antarctica below 50°S, the Arctic above 80°N, uniform over their area.
    var remote: [GeoPoint] = []
    var remoteRng = SplitMix64(seed: 19)
    while remote.count < 4096 {
        let south = remoteRng.next() % 4 != 0
        let (a, b) = south ? (sin(-90.0 * .pi / 180), sin(-50.0 * .pi / 180)) : (sin(80.0 * .pi / 180), 1.0)
        let lat = asin(a + (b - a) * remoteRng.nextUnit()) * 180 / Double.pi
        if let p = try? GeoPoint(latitude: lat, longitude: 360 * remoteRng.nextUnit() - 180) { remote.append(p) }
    }
    bench("places.near_remote", iterations: 10_000, extra: [("count", "5"), ("points", "\"south of 50°S, north of 80°N\""),
                                                             ("goal_ns", "50000")]) { n in
        var total = 0.0
        for i in 0..<n { total += search.nearest(to: remote[i & 4095], count: 5).first?.distance ?? 0 }
        blackHole(total)
    }
    // The slowest answers on the uniform points, each timed alone (the goal is for any point).
    if report.shouldRun("places.near_tail") {
        // A first pass brings the pages in (places.first_query is that cost); the second is timed.
        for point in points + remote { blackHole(search.nearest(to: point, count: 5).first?.distance ?? 0) }
        var times: [Double] = []
        for point in points + remote {
            var t0 = timespec(), t1 = timespec()
            clock_gettime(CLOCK_MONOTONIC, &t0)
            blackHole(search.nearest(to: point, count: 5).first?.distance ?? 0)
            clock_gettime(CLOCK_MONOTONIC, &t1)
            times.append(Double(t1.tv_sec - t0.tv_sec) * 1e6 + Double(t1.tv_nsec - t0.tv_nsec) / 1e3)
        }
        times.sort()
        reportFigure("places.near_tail", extra: [("points", "\"uniform and remote, 5 places, each timed alone, pages in\""),
                                                 ("p50_us", jsonNumber(times[times.count / 2], 1)),
                                                 ("p99_us", jsonNumber(times[times.count * 99 / 100], 1)),
                                                 ("max_us", jsonNumber(times[times.count - 1], 1))])
    }
    var nearPlaces: [GeoPoint] = []
    while nearPlaces.count < 4096 {
        let p = Gazetteer.builtIn.position(at: Int(rng.next() % UInt64(Gazetteer.builtIn.count)))
        let lat = max(-90, min(90, p.latitude + 0.03 * (2 * rng.nextUnit() - 1)))
        if let q = try? GeoPoint(latitude: lat, longitude: p.longitude + 0.03 * (2 * rng.nextUnit() - 1)) { nearPlaces.append(q) }
    }
    bench("places.near_settled", iterations: 20_000, extra: [("count", "5"), ("points", "\"within 3 km of a place\""),
                                                              ("goal_ns", "50000")]) { n in
        var total = 0.0
        for i in 0..<n { total += search.nearest(to: nearPlaces[i & 4095], count: 5).first?.distance ?? 0 }
        blackHole(total)
    }
    bench("places.where", iterations: 5_000, extra: [("what", "\"nearest place and the town beside it\"")]) { n in
        var total = 0.0
        for i in 0..<n {
            let point = nearPlaces[i & 4095]
            if let near = search.nearest(to: point, count: 1).first {
                total += near.distance + (search.town(near: point, beside: near)?.distance ?? 0)
            }
        }
        blackHole(total)
    }
    let names = NameSearch()
    bench("places.find", iterations: 20, extra: [("query", "\"hoorn\"")]) { n in
        var total = 0
        for _ in 0..<n { total += names.find("hoorn", count: 10).count }
        blackHole(Double(total))
    }
    bench("places.find_zh", iterations: 20, extra: [("query", "\"北京\"")]) { n in
        var total = 0
        for _ in 0..<n { total += names.find("北京", count: 10).count }
        blackHole(Double(total))
    }
    bench("places.suggest", iterations: 3, extra: [("query", "\"Pekingg\"")]) { n in
        var total = 0
        for _ in 0..<n { total += names.suggestion(for: "Pekingg")?.count ?? 0 }
        blackHole(Double(total))
    }
}
