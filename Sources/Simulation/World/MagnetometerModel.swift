import Linear

/// The errors of a real magnetometer mounted in a real board: hard iron, soft iron, and orientation.
///
/// `distorted = softIron · body + hardIron` — distortions ride with the board, so they act in body
/// axes. The rig then maps the result into the chip's axes; noise is the chip emulator's business.
///
/// ```swift
/// let model = MagnetometerModel.typicalBoard
/// let measured = model.distorted(bodyField)
/// ```
public struct MagnetometerModel: Sendable, Equatable {
    /// Hard-iron offset, µT, in body axes.
    public var hardIron: Vector3
    /// Soft-iron matrix in body axes (identity for none).
    public var softIron: Matrix3

    public init(hardIron: Vector3 = .zero, softIron: Matrix3 = .identity) {
        self.hardIron = hardIron
        self.softIron = softIron
    }

    /// An ideal sensor.
    public static let ideal = MagnetometerModel()

    /// A plausible hobby board: tens of µT of hard iron and a few % of soft iron.
    public static let typicalBoard = MagnetometerModel(
        hardIron: Vector3(31.5, -18.2, 12.7),
        softIron: Matrix3(rows: Vector3(1.06, 0.03, -0.02), Vector3(0.03, 0.95, 0.04), Vector3(-0.02, 0.04, 1.01)))

    /// The distorted field in body axes.
    @inlinable public func distorted(_ body: Vector3) -> Vector3 { softIron * body + hardIron }
}
