import Linear
import Platform

/// A direction in the vehicle, used to name mountings: where the chip's X arrow and its Z axis
/// (the component side of the board) point.
public enum MountingDirection: String, CaseIterable, Sendable {
    case forward, right, back, left, up, down

    /// The unit vector in body axes (x forward, y right, z down).
    public var bodyVector: Vector3 {
        switch self {
        case .forward: return Vector3(1, 0, 0)
        case .back: return Vector3(-1, 0, 0)
        case .right: return Vector3(0, 1, 0)
        case .left: return Vector3(0, -1, 0)
        case .down: return Vector3(0, 0, 1)
        case .up: return Vector3(0, 0, -1)
        }
    }

    var isVertical: Bool { self == .up || self == .down }
}

extension MountingOrientation {
    /// The mounting whose chip X arrow points `x` and whose chip Z axis (out of the component side)
    /// points `z`; chip Y completes the right-handed set. Nil when `x` and `z` are not perpendicular.
    ///
    /// ```swift
    /// MountingOrientation.axes(x: .forward, z: .up)   // == .componentSideUp
    /// ```
    public static func axes(x: MountingDirection, z: MountingDirection) -> MountingOrientation? {
        let xb = x.bodyVector, zb = z.bodyVector
        guard xb.dot(zb) == 0 else { return nil }
        let yb = zb.cross(xb)
        // The columns of the matrix are the body directions of the chip axes.
        let matrix = Matrix3(rows: Vector3(xb.x, yb.x, zb.x), Vector3(xb.y, yb.y, zb.y), Vector3(xb.z, yb.z, zb.z))
        return MountingOrientation(name: "x-\(x.rawValue)-z-\(z.rawValue)", matrix: matrix)
    }

    /// All 24 axis-aligned mountings, grouped by where the X arrow points (forward, right, back,
    /// left, up, down), and within each group Z up, Z down, then the horizontal Z directions.
    /// The first is the default, `x-forward-z-up`.
    public static let allNamed: [MountingOrientation] = {
        var list: [MountingOrientation] = []
        let zOrder: [MountingDirection] = [.up, .down, .forward, .right, .back, .left]
        for x in MountingDirection.allCases {
            for z in zOrder {
                if let m = axes(x: x, z: z) { list.append(m) }
            }
        }
        return list
    }()

    /// Short names for common mountings, each the default board (flat, components up, X forward)
    /// turned by aerospace Euler angles in degrees: `R = Rz(yaw) · Ry(pitch) · Rx(roll)`, applied in
    /// body axes (yaw clockwise seen from above, pitch nose up, roll right side down).
    public static let aliases: [(alias: String, roll: Double, pitch: Double, yaw: Double)] = [
        ("default", 0, 0, 0), ("flat", 0, 0, 0),
        ("yaw90", 0, 0, 90), ("yaw180", 0, 0, 180), ("yaw270", 0, 0, 270),
        ("roll90", 90, 0, 0), ("roll180", 180, 0, 0), ("roll270", 270, 0, 0),
        ("pitch90", 0, 90, 0), ("pitch180", 0, 180, 0), ("pitch270", 0, 270, 0),
        ("roll180-yaw90", 180, 0, 90), ("roll180-yaw180", 180, 0, 180), ("roll180-yaw270", 180, 0, 270),
        ("upside-down", 180, 0, 0),
        // The Sense HAT on a flat Pi: the LSM9DS1's X points back, so the frame its software calls
        // forward (RTIMULib turns the chip's axes by 180° about Z) is Lodestone's forward.
        ("sense-hat", 0, 0, 180),
    ]

    /// The named mounting for an alias's Euler angles (nil if they are not multiples of 90°).
    static func aliasTarget(roll: Double, pitch: Double, yaw: Double) -> MountingOrientation? {
        let turn = Matrix3.rotation(roll: radians(roll), pitch: radians(pitch), yaw: radians(yaw))
        let matrix = turn * componentSideUp.matrix
        return allNamed.first { $0.matrix.isClose(to: matrix, tolerance: 1e-9) }
    }

    /// Looks up a mounting by name or alias. Case, spaces and underscores are forgiven
    /// ("X_Forward_Z_Down" works). Unknown names throw an error that lists every valid name.
    ///
    /// ```swift
    /// let m = try MountingOrientation.named("roll180")   // x-forward-z-down: upside down
    /// ```
    public static func named(_ text: String) throws(OrientationError) -> MountingOrientation {
        let key = String(text.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 })
        if let found = allNamed.first(where: { $0.name == key }) { return found }
        if let alias = aliases.first(where: { $0.alias == key }),
           let found = aliasTarget(roll: alias.roll, pitch: alias.pitch, yaw: alias.yaw) {
            return found
        }
        throw .unknownName(text, suggestion: closestMatch(to: key, in: acceptedNames))
    }

    /// Every accepted spelling: the 24 names, then the aliases.
    public static var acceptedNames: [String] { allNamed.map(\.name) + aliases.map(\.alias) }

    /// One sentence describing the mounting, for documentation and help.
    ///
    /// ```swift
    /// MountingOrientation.componentSideUp.summary
    /// // "flat, components up, X arrow pointing forward"
    /// ```
    public var summary: String {
        guard let (x, z) = directions else { return "a custom rotation from the calibration profile" }
        if z.isVertical {
            return "flat, components \(z.rawValue), X arrow pointing \(x.rawValue)"
        }
        return "on edge, components facing \(z.rawValue), X arrow pointing \(x.rawValue)"
    }

    /// Where the chip X and Z axes point, when this is one of the 24 mountings.
    public var directions: (x: MountingDirection, z: MountingDirection)? {
        let column0 = Vector3(matrix.r0.x, matrix.r1.x, matrix.r2.x)
        let column2 = Vector3(matrix.r0.z, matrix.r1.z, matrix.r2.z)
        func direction(_ v: Vector3) -> MountingDirection? {
            MountingDirection.allCases.first { ($0.bodyVector - v).norm < 1e-6 }
        }
        guard let x = direction(column0), let z = direction(column2) else { return nil }
        return (x, z)
    }
}

extension OrientationError: UserFacingError {
    /// A bad name is a usage error (64); a bad matrix comes from a profile, so it is bad data (65).
    public var exitCode: ExitCode {
        if case .unknownName = self { return .usage }
        return .dataError
    }
}
