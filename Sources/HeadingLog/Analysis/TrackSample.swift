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
        /// True when the track breaks before this point (a restart of the logger, a long gap): no
        /// line is drawn to it from the point before.
        public var startsSegment = false
    }

    public let capacity: Int
    public private(set) var points: [Point] = []
    private var stride = 1
    private var seen = 0
    private var lastPoint: Point?
    private var firstLongitude: Double?
    private var sumLatitude = 0.0
    private var sumLongitude = 0.0
    /// A break that the next kept point must carry (the point that started it may be thinned out).
    private var breakPending = false

    public init(capacity: Int = 4000) {
        self.capacity = max(4, capacity)
        points.reserveCapacity(self.capacity)
    }

    /// Adds a position (degrees); `newSegment`: the track breaks before it.
    public mutating func add(latitude: Double, longitude: Double, newSegment: Bool = false) {
        let reference = firstLongitude ?? longitude
        if firstLongitude == nil { firstLongitude = longitude }
        var d = (longitude - reference).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        if newSegment && seen > 0 { breakPending = true }
        var p = Point(latitude: latitude, longitude: reference + d)
        sumLatitude += p.latitude
        sumLongitude += p.longitude
        defer { seen += 1 }
        guard seen % stride == 0 else {
            lastPoint = Point(latitude: p.latitude, longitude: p.longitude, startsSegment: breakPending)
            return
        }
        if points.count == capacity {
            // Thinning keeps every other point; a dropped point's break moves to the next kept one.
            var kept: [Point] = []
            var carried = false
            for (i, q) in points.enumerated() {
                carried = carried || q.startsSegment
                if i % 2 == 0 {
                    kept.append(Point(latitude: q.latitude, longitude: q.longitude, startsSegment: carried))
                    carried = false
                }
            }
            breakPending = breakPending || carried
            points = kept
            stride *= 2
            guard seen % stride == 0 else {
                lastPoint = Point(latitude: p.latitude, longitude: p.longitude, startsSegment: breakPending)
                return
            }
        }
        p.startsSegment = breakPending
        breakPending = false
        lastPoint = p
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
