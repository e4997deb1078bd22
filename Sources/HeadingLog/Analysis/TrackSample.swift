/// A thinned copy of the GNSS track for plotting: every position while there are few, then every
/// 2nd, 4th, … so at most `capacity` points are kept however long the log. The last position is
/// always kept. Longitudes are unwrapped to continue from the first one (no jump at ±180°).
///
/// ```swift
/// var track = TrackSample(capacity: 4000)
/// track.add(latitude: -33.87, longitude: 151.2)
/// ```
public struct TrackSample: Sendable {
    public struct Point: Sendable, Equatable {
        public var latitude: Double
        /// Longitude continuing from the first point's (may leave [−180, 180]).
        public var longitude: Double
    }

    public let capacity: Int
    public private(set) var points: [Point] = []
    private var stride = 1
    private var seen = 0
    private var lastPoint: Point?
    private var firstLongitude: Double?
    private var sumLatitude = 0.0
    private var sumLongitude = 0.0

    public init(capacity: Int = 4000) {
        self.capacity = max(4, capacity)
        points.reserveCapacity(self.capacity)
    }

    /// Adds a position (degrees).
    public mutating func add(latitude: Double, longitude: Double) {
        let reference = firstLongitude ?? longitude
        if firstLongitude == nil { firstLongitude = longitude }
        var d = (longitude - reference).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        let p = Point(latitude: latitude, longitude: reference + d)
        sumLatitude += p.latitude
        sumLongitude += p.longitude
        lastPoint = p
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        if points.count == capacity {
            points = Swift.stride(from: 0, to: points.count, by: 2).map { points[$0] }
            stride *= 2
            guard seen % stride == 0 else { return }
        }
        points.append(p)
    }

    /// Every kept point, ending with the last position added.
    public var pointsWithLast: [Point] {
        guard let lastPoint, points.last != lastPoint else { return points }
        return points + [lastPoint]
    }

    /// The number of positions added.
    public var count: Int { seen }

    /// The mean position (longitude unwrapped like the points), or nil when empty.
    public var mean: Point? {
        guard seen > 0 else { return nil }
        return Point(latitude: sumLatitude / Double(seen), longitude: sumLongitude / Double(seen))
    }
}
