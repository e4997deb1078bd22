import Geodesy

/// A circular region: a centre and a radius.
public struct Region: Sendable, Equatable {
    public var name: String
    public var centre: GeoPoint
    /// Metres, > 0.
    public var radius: Double

    public init(name: String, centre: GeoPoint, radius: Double) {
        self.name = name
        self.centre = centre
        self.radius = radius
    }
}

/// What happened at a region.
public enum RegionEventKind: String, Sendable, Equatable {
    /// The first state: the first fix is inside, or outside.
    case inside, outside
    case enter, exit
    /// Inside for the dwell time since entering (or since the first fix).
    case dwell
}

/// One region event, with the fix that caused it.
public struct RegionEvent: Sendable, Equatable {
    public var region: Int
    public var kind: RegionEventKind
    /// Geodesic distance from the region's centre, metres.
    public var distance: Double
}

/// Region monitoring with hysteresis, like CLCircularRegion: the state changes only when a fix is
/// clearly across the boundary given its horizontal error, so a fix jittering by its error around
/// the boundary does not flap.
///
/// A region is entered when the distance to its centre is at most `radius − margin` and left when
/// it is above `radius + margin`, where the margin is the fix's horizontal error (at least
/// `minimumMargin`), and at most half the radius on the way in so that small regions can be
/// entered at all. The first fix sets the state by the plain radius.
///
/// ```swift
/// var monitor = RegionMonitor(regions: [home], dwell: 60)
/// let events = monitor.update(at: point, horizontalError: 5, time: 12)   // [.inside] or [.outside] first
/// ```
public struct RegionMonitor: Sendable {
    public let regions: [Region]
    /// Seconds inside before a dwell event; nil for none.
    public var dwell: Double?
    /// The smallest margin, metres.
    public var minimumMargin: Double

    private var inside: [Bool?]
    private var since: [Double]
    private var dwelt: [Bool]

    public init(regions: [Region], dwell: Double? = nil, minimumMargin: Double = 1) {
        self.regions = regions
        self.dwell = dwell
        self.minimumMargin = minimumMargin
        inside = Array(repeating: nil, count: regions.count)
        since = Array(repeating: 0, count: regions.count)
        dwelt = Array(repeating: false, count: regions.count)
    }

    /// Whether each region holds the position (nil before the first fix).
    public var states: [Bool?] { inside }

    /// The events a fix causes. `horizontalError` is the fix's (metres, nil when unknown); `time`
    /// is in seconds on any clock that does not go back.
    public mutating func update(at point: GeoPoint, horizontalError: Double?, time: Double) -> [RegionEvent] {
        var events: [RegionEvent] = []
        let error = horizontalError.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
        let margin = max(error, minimumMargin)
        for (i, region) in regions.enumerated() {
            let distance = Geodesic.wgs84.inverse(region.centre, point).distance
            switch inside[i] {
            case nil:
                let isInside = distance <= region.radius
                inside[i] = isInside
                since[i] = time
                dwelt[i] = false
                events.append(RegionEvent(region: i, kind: isInside ? .inside : .outside, distance: distance))
            case true?:
                if distance > region.radius + margin {
                    inside[i] = false
                    events.append(RegionEvent(region: i, kind: .exit, distance: distance))
                }
            case false?:
                if distance <= region.radius - min(margin, region.radius / 2) {
                    inside[i] = true
                    since[i] = time
                    dwelt[i] = false
                    events.append(RegionEvent(region: i, kind: .enter, distance: distance))
                }
            }
            if inside[i] == true, !dwelt[i], let dwell, time - since[i] >= dwell {
                dwelt[i] = true
                events.append(RegionEvent(region: i, kind: .dwell, distance: distance))
            }
        }
        return events
    }
}
