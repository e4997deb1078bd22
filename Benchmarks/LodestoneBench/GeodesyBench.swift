// Geodesy benchmarks: the WGS84 inverse problem on random global pairs.
//
// The pairs are uniform on the sphere (lat = asin(2u − 1), lon uniform in [−180, 180)), drawn
// from SplitMix64 with a fixed seed and cycled from a precomputed array. Benchmarks/c/
// geod_inverse_bench.c draws the identical pairs for PROJ's C geod_inverse, so the two figures
// compare like with like.
import Geodesy
import Linear
import Platform
import Glibc

/// `count` random points uniform on the sphere (a power of two, so the index can be masked).
private func randomGlobalPoints(count: Int, seed: UInt64) -> [GeoPoint] {
    var rng = SplitMix64(seed: seed)   // the same generator and seed as Benchmarks/c/geod_inverse_bench.c
    var points: [GeoPoint] = []
    points.reserveCapacity(count)
    while points.count < count {
        let lat = asin(2 * rng.nextUnit() - 1) * 180 / Double.pi
        let lon = 360 * rng.nextUnit() - 180
        if let p = try? GeoPoint(latitude: lat, longitude: lon) { points.append(p) }
    }
    return points
}

func runGeodesyBenchmarks() {
    let pairCount = 4096  // 8192 points: pairs (2i, 2i + 1)
    let points = randomGlobalPoints(count: 2 * pairCount, seed: 20_250_101)
    let mask = pairCount - 1

    // PROJ's C geod_inverse on the same kind of pairs, measured by Benchmarks/c/geod_inverse_bench.c
    // just before (make bench passes its figure in); the goal is to be at or below it.
    var inverseExtra = [("pairs", "\(pairCount)")]
    if let c = Environment.value("LODESTONE_PROJ_C_NS").flatMap(Double.init) {
        inverseExtra.append(("proj_c_ns_per_op", jsonNumber(c, 1)))
    }
    bench("geodesic.inverse", iterations: 400_000, extra: inverseExtra) { n in
        var total = 0.0
        points.withUnsafeBufferPointer { p in
            for i in 0..<n {
                let k = 2 * (i & mask)
                let r = Geodesic.inverse(p[k], p[k + 1])
                total += r.distance + r.azimuth1 + r.azimuth2
            }
        }
        blackHole(total)
    }

    bench("geodesic.direct", iterations: 400_000, extra: [("pairs", "\(pairCount)")]) { n in
        var total = 0.0
        points.withUnsafeBufferPointer { p in
            for i in 0..<n {
                let k = 2 * (i & mask)
                // Azimuth and distance drawn from the second point's coordinates.
                let azimuth = p[k + 1].longitude + 180
                let distance = (p[k + 1].latitude + 90) * 111_000
                if let r = try? Geodesic.direct(from: p[k], azimuth: azimuth, distance: distance) {
                    total += r.point.latitude + r.point.longitude + r.azimuth2
                }
            }
        }
        blackHole(total)
    }
}
