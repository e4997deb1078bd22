import Geodesy
import Glibc
import Linear

/// Where `goto` leads: a named point and the radius within which one has arrived.
public struct Destination: Sendable, Equatable {
    public var name: String
    public var point: GeoPoint
    /// Metres, > 0.
    public var radius: Double

    public init(name: String, point: GeoPoint, radius: Double) {
        self.name = name
        self.point = point
        self.radius = radius
    }
}

/// The guidance from one fix towards a destination.
public struct Guidance: Sendable, Equatable {
    /// Geodesic distance to the destination, metres.
    public var distance: Double
    /// Azimuth of the geodesic towards the destination at the current position, degrees [0, 360);
    /// nil when there.
    public var bearing: Double?
    /// The bearing relative to the heading, degrees in (−180, 180]: positive means turn right.
    public var relativeBearing: Double?
    /// Speed made good towards the destination (smoothed), m/s; negative while moving away.
    public var speedMadeGood: Double?
    /// Time to arrive at the smoothed speed made good, seconds; nil unless closing.
    public var timeToGo: Double?
    /// Distance off the geodesic from the start to the destination, metres: positive right of it.
    public var crossTrackError: Double?
    /// Within the destination's radius.
    public var arrived: Bool
}

/// Guidance to a destination from successive fixes: distance and bearing (geodesic), the bearing
/// relative to the heading, the speed made good (from the receiver's velocity when it gives one,
/// else from the change in distance; smoothed exponentially), the time to go from it, and the
/// cross-track error from the first fix.
///
/// ```swift
/// var guide = DestinationGuide(destination)
/// let g = guide.update(latitude: 52.6, longitude: 5.0, time: 0, speed: 1.4, course: 40, heading: 30)
/// g.relativeBearing   // the turn towards the destination from the heading
/// ```
public struct DestinationGuide: Sendable {
    public let destination: Destination
    /// Smoothing time constant of the speed made good, seconds.
    public var smoothing: Double
    /// Closing speeds below this give no time to go, m/s.
    public var minimumClosingSpeed: Double

    public private(set) var start: GeoPoint?
    private var startAzimuth = 0.0
    private var last: (distance: Double, time: Double)?
    private var smoothedSpeed: Double?

    /// The mean Earth radius used for the cross-track angle, metres (IUGG R1).
    static let meanRadius = 6_371_008.8

    public init(_ destination: Destination, smoothing: Double = 10, minimumClosingSpeed: Double = 0.1) {
        self.destination = destination
        self.smoothing = smoothing
        self.minimumClosingSpeed = minimumClosingSpeed
    }

    /// Guidance from a fix. `time` is monotonic seconds; `speed` (m/s) and `course` (degrees) are
    /// the receiver's when it gives them; `heading` the compass's true heading when a sensor is read.
    public mutating func update(at point: GeoPoint, time: Double, speed: Double? = nil, course: Double? = nil,
                                heading: Double? = nil) -> Guidance {
        let toTarget = Geodesic.wgs84.inverse(point, destination.point)
        let distance = toTarget.distance
        let bearing = distance > 0 ? toTarget.azimuth1 : nil
        if start == nil {
            start = point
            startAzimuth = toTarget.azimuth1
        }
        var raw: Double?
        if let speed, speed.isFinite, let course, course.isFinite, let bearing {
            raw = speed * cos((course - bearing) * .pi / 180)
        } else if let last, time > last.time {
            raw = (last.distance - distance) / (time - last.time)
        }
        if let raw {
            let dt = last.map { max(0, time - $0.time) } ?? 0
            if let previous = smoothedSpeed, smoothing > 0 {
                let alpha = lowPassGain(dt: dt, tau: smoothing)
                smoothedSpeed = previous + alpha * (raw - previous)
            } else {
                smoothedSpeed = raw
            }
        }
        last = (distance, time)
        let arrived = distance <= destination.radius
        var timeToGo: Double?
        if let v = smoothedSpeed, v >= minimumClosingSpeed, !arrived { timeToGo = distance / v }
        return Guidance(distance: distance, bearing: bearing,
                        relativeBearing: heading.flatMap { h in bearing.map { relativeAngle($0 - h) } },
                        speedMadeGood: smoothedSpeed, timeToGo: arrived ? 0 : timeToGo,
                        crossTrackError: crossTrack(point), arrived: arrived)
    }

    /// The cross-track distance from the start's geodesic to the destination (spherical formula
    /// over the geodesic distance and azimuths, well below a metre off for the distances one steers).
    private func crossTrack(_ point: GeoPoint) -> Double? {
        guard let start, start != destination.point else { return nil }
        let fromStart = Geodesic.wgs84.inverse(start, point)
        if fromStart.distance == 0 { return 0 }
        let angle = fromStart.distance / Self.meanRadius
        return asin(sin(angle) * sin((fromStart.azimuth1 - startAzimuth) * .pi / 180)) * Self.meanRadius
    }
}

/// An angle reduced to (−180, 180].
public func relativeAngle(_ degrees: Double) -> Double { wrap180(degrees) }
