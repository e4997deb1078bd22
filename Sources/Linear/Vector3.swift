#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 3-vector of `Double`, used for magnetic field (µT), acceleration (g) and directions.
///
/// ```swift
/// let b = Vector3(20, -5, 40)
/// let horizontal = Vector3(b.x, b.y, 0).norm
/// ```
public struct Vector3: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x; self.y = y; self.z = z
    }

    @inlinable public init(x: Double, y: Double, z: Double) {
        self.x = x; self.y = y; self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    /// The components as an array, in x, y, z order.
    public var array: [Double] { [x, y, z] }

    /// Component by index 0, 1, 2.
    @inlinable public subscript(i: Int) -> Double {
        get { i == 0 ? x : (i == 1 ? y : z) }
        set {
            switch i {
            case 0: x = newValue
            case 1: y = newValue
            default: z = newValue
            }
        }
    }

    @inlinable public var squaredNorm: Double { x * x + y * y + z * z }
    @inlinable public var norm: Double { squaredNorm.squareRoot() }

    /// The unit vector in the same direction, or `nil` for a zero or non-finite vector.
    @inlinable public var normalized: Vector3? {
        let n = norm
        guard n > 0, n.isFinite else { return nil }
        return self / n
    }

    /// True when every component is finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    @inlinable public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }

    @inlinable public func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }

    public var description: String { "(\(x), \(y), \(z))" }
}

/// Degrees ↔ radians.
@inlinable public func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
@inlinable public func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
