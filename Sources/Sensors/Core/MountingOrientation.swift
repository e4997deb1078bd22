import Linear

/// How the chip's axes (as printed on the board) sit in the body frame (x forward, y right, z down).
///
/// `body = matrix · chip`. The default, `componentSideUp`, is a board lying flat, components up, with
/// its X arrow pointing forward: chip y points left and chip z up, so body = (x, −y, −z).
///
/// The 24 axis-aligned mountings have readable names (`allNamed`, `named(_:)`: "x-forward-z-up",
/// "x-right-z-down", … and aliases such as "yaw90" or "roll180"); any other rotation comes from a
/// calibration profile through `custom(matrix:)`.
///
/// ```swift
/// let mounting = try MountingOrientation.named("yaw90")   // x-right-z-up
/// let body = mounting.toBody(chipField)
/// ```
public struct MountingOrientation: Sendable, Equatable {
    public var name: String
    /// Rotation from chip axes to body axes (orthonormal).
    public var matrix: Matrix3

    public init(name: String, matrix: Matrix3) {
        self.name = name
        self.matrix = matrix
    }

    /// Flat, components up, X arrow forward.
    public static let componentSideUp = MountingOrientation(
        name: "x-forward-z-up", matrix: Matrix3.diagonal(Vector3(1, -1, -1)))

    /// Maps a chip-frame vector to body axes.
    @inlinable public func toBody(_ chip: Vector3) -> Vector3 { matrix * chip }

    /// Maps a body-frame vector to chip axes (used by the simulator).
    @inlinable public func toChip(_ body: Vector3) -> Vector3 { matrix.transposed * body }

    /// Largest deviation of `matrix · matrixᵀ` from the identity accepted by `custom(matrix:)`
    /// (room for a profile written with four or five decimals).
    public static let orthonormalTolerance = 1e-3

    /// A mounting rotation from a calibration profile, validated as a proper rotation (orthonormal,
    /// determinant +1) and cleaned of rounding with Gram–Schmidt. When it equals one of the 24 named
    /// mountings it takes that name; otherwise it is called "custom".
    ///
    /// ```swift
    /// let swap = Matrix3(rows: Vector3(0, 1, 0), Vector3(1, 0, 0), Vector3(0, 0, -1))
    /// let m = try MountingOrientation.custom(matrix: swap)
    /// m.name   // "x-right-z-up"
    /// ```
    public static func custom(matrix: Matrix3) throws(OrientationError) -> MountingOrientation {
        guard matrix.isFinite else { throw .notFinite }
        let product = matrix * matrix.transposed
        var deviation = 0.0
        for i in 0..<3 {
            for j in 0..<3 {
                deviation = max(deviation, abs(product[i, j] - (i == j ? 1 : 0)))
            }
        }
        guard deviation <= orthonormalTolerance else { throw .notOrthonormal(deviation: deviation) }
        guard matrix.determinant > 0 else { throw .reflection }
        // Gram–Schmidt on the rows; r2 follows from r0 × r1, so the result is a proper rotation.
        guard let r0 = matrix.r0.normalized,
              let r1 = (matrix.r1 - r0 * r0.dot(matrix.r1)).normalized
        else { throw .notOrthonormal(deviation: deviation) }
        let clean = Matrix3(rows: r0, r1, r0.cross(r1))
        if let match = allNamed.first(where: { $0.matrix.isClose(to: clean, tolerance: 1e-6) }) {
            return match
        }
        return MountingOrientation(name: "custom", matrix: clean)
    }
}

/// Why a mounting orientation was refused.
public enum OrientationError: Error, Equatable, Sendable {
    /// The name is not one of the 24 mountings or their aliases.
    case unknownName(String, suggestion: String?)
    /// A custom matrix holds NaN or infinity.
    case notFinite
    /// A custom matrix is not a rotation: `M·Mᵀ` differs from the identity by `deviation`.
    case notOrthonormal(deviation: Double)
    /// A custom matrix is a mirror image (determinant −1): the chip axes would be left-handed.
    case reflection

    public var message: String {
        switch self {
        case .unknownName(let name, let suggestion):
            return "unknown mounting orientation '\(name)'"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + "\n"
                + "Valid names: " + MountingOrientation.allNamed.map(\.name).joined(separator: ", ") + ".\n"
                + "Aliases: " + MountingOrientation.aliases.map(\.alias).joined(separator: ", ") + "."
        case .notFinite:
            return "the mounting matrix holds a non-finite number; check the calibration profile"
        case .notOrthonormal(let deviation):
            return "the mounting matrix is not a rotation (rows not orthonormal; off by \(deviation)); "
                + "check the calibration profile or use a named --orientation"
        case .reflection:
            return "the mounting matrix is a reflection (determinant −1), not a rotation; "
                + "a sign in the calibration profile is probably wrong"
        }
    }
}

extension Matrix3 {
    /// Element-wise closeness.
    func isClose(to other: Matrix3, tolerance: Double) -> Bool {
        for i in 0..<3 {
            for j in 0..<3 where abs(self[i, j] - other[i, j]) > tolerance { return false }
        }
        return true
    }
}
