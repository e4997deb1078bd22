import Linear

/// How the chip's axes (as printed on the board) sit in the body frame (x forward, y right, z down).
///
/// `body = matrix · chip`. The default, `componentSideUp`, is a board lying flat, components up, with
/// its X arrow pointing forward: chip y points left and chip z up, so body = (x, −y, −z).
///
/// ```swift
/// let body = MountingOrientation.componentSideUp.toBody(chipField)
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
}
