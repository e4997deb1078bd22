import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Accelerometer offset and scale per axis: `corrected = (raw − offset) ⊙ scale`, in g.
///
/// Made by the six-position procedure: hold the board still with each side facing up in turn
/// (top, bottom, front, back, left, right) and pass the six averaged readings:
/// ```swift
/// let cal = try AccelerometerCalibration.sixPosition(averagedReadings)
/// let g = cal.apply(rawAcceleration)
/// ```
public struct AccelerometerCalibration: Sendable, Hashable {
    public var offset: Vector3
    public var scale: Vector3

    public init(offset: Vector3 = .zero, scale: Vector3 = Vector3(1, 1, 1)) {
        self.offset = offset; self.scale = scale
    }

    /// The corrected acceleration.
    @inlinable public func apply(_ raw: Vector3) -> Vector3 {
        let d = raw - offset
        return Vector3(d.x * scale.x, d.y * scale.y, d.z * scale.z)
    }

    /// Fits offset and scale from six still poses, one with each side of the board facing up,
    /// in any order. A still sensor reads +gravity along the axis pointing up (z down: a level
    /// board reads (0, 0, −1) g). Poses may be tilted up to `maximumTiltDegrees`; the fit uses all
    /// three components of every reading (Gauss–Newton on |scale ⊙ (r − offset)| = gravity).
    public static func sixPosition(_ readings: [Vector3], gravity: Double = 1,
                                   maximumTiltDegrees: Double = 20) throws(AccelerometerCalibrationError) -> AccelerometerCalibration {
        guard readings.count == 6 else { throw .wrongPoseCount(readings.count) }
        guard readings.allSatisfy(\.isFinite), gravity > 0, gravity.isFinite else { throw .notFinite }
        // The reading points up, so the side whose outward axis is nearest to it faces up.
        var bySide: [BoardSide: Vector3] = [:]
        for (i, r) in readings.enumerated() {
            guard let u = r.normalized else { throw .notFinite }
            let side = BoardSide.nearest(to: u)
            let tilt = degrees(acos(min(max(u.dot(side.axis), -1), 1)))
            guard tilt <= maximumTiltDegrees else { throw .poseTooTilted(index: i, degrees: tilt) }
            let magnitude = r.norm / gravity
            guard magnitude > 0.5, magnitude < 2 else { throw .implausibleMagnitude(index: i, gravities: magnitude) }
            guard bySide[side] == nil else { throw .duplicatePose(upSide: side) }
            bySide[side] = r
        }
        for side in BoardSide.allCases where bySide[side] == nil { throw .missingPose(upSide: side) }
        // Closed form per axis, then refine on all components.
        var offset = Vector3.zero, scale = Vector3.zero
        let pairs: [(BoardSide, BoardSide)] = [(.front, .back), (.right, .left), (.bottom, .top)]
        for (axis, (plus, minus)) in pairs.enumerated() {
            guard let upReading = bySide[plus], let downReading = bySide[minus] else { throw .missingPose(upSide: plus) }
            let up = upReading[axis], down = downReading[axis]
            guard up - down > 0 else { throw .implausibleScale(axis: axis) }
            offset[axis] = (up + down) / 2
            scale[axis] = 2 * gravity / (up - down)
        }
        let points = readings.map { $0 / gravity }
        let start = UnitSphereParameters(offset: offset / gravity, matrix: Matrix3.diagonal(scale * gravity))
        if let refined = LevenbergMarquardt.refine(points, model: .diagonal, start: start) {
            let m = refined.parameters.matrix
            offset = refined.parameters.offset * gravity
            scale = Vector3(m[0, 0], m[1, 1], m[2, 2]) / gravity
        }
        for axis in 0..<3 {
            let s = scale[axis] * gravity
            guard s > 0.5, s < 2, abs(offset[axis]) < 0.5 * gravity else { throw .implausibleScale(axis: axis) }
        }
        return AccelerometerCalibration(offset: offset, scale: scale)
    }
}

/// Why the six-position accelerometer calibration failed; `message` says what to do.
public enum AccelerometerCalibrationError: Error, Sendable, Hashable {
    case wrongPoseCount(Int)
    case notFinite
    case poseTooTilted(index: Int, degrees: Double)
    case implausibleMagnitude(index: Int, gravities: Double)
    case duplicatePose(upSide: BoardSide)
    case missingPose(upSide: BoardSide)
    case implausibleScale(axis: Int)

    public var message: String {
        switch self {
        case let .wrongPoseCount(n):
            return "six still poses are needed (one with each side facing up), got \(n): record the missing poses"
        case .notFinite:
            return "a pose reading is not a number: check the accelerometer connection and record the poses again"
        case let .poseTooTilted(i, d):
            return "pose \(i + 1) is tilted \(fixed(d, 0))° from square: rest the board flat on one side and record it again"
        case let .implausibleMagnitude(i, g):
            return "pose \(i + 1) reads \(fixed(g, 2)) g instead of about 1 g: keep the board still and check the accelerometer range setting"
        case let .duplicatePose(side):
            return "two poses had the \(side.rawValue) facing up: record one pose per side (top, bottom, front, back, left, right)"
        case let .missingPose(side):
            return "no pose had the \(side.rawValue) facing up: rest the board with its \(side.rawValue) up and record it"
        case let .implausibleScale(axis):
            return "the \(["x", "y", "z"][min(max(axis, 0), 2)]) axis gain or offset is implausible: check the accelerometer range setting and record the poses again"
        }
    }
}
