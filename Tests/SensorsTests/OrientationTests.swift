import Foundation
import Linear
import Sensors
import Testing

@Suite("Mounting orientation: the 24 named mountings, aliases, custom matrices")
struct OrientationTests {
    /// Body unit vectors by name, written out independently of the implementation.
    let direction: [String: Vector3] = [
        "forward": Vector3(1, 0, 0), "back": Vector3(-1, 0, 0), "right": Vector3(0, 1, 0),
        "left": Vector3(0, -1, 0), "down": Vector3(0, 0, 1), "up": Vector3(0, 0, -1),
    ]

    @Test("there are 24, all distinct proper rotations with entries 0 or ±1")
    func twentyFourRotations() {
        let all = MountingOrientation.allNamed
        #expect(all.count == 24)
        #expect(Set(all.map(\.name)).count == 24)
        #expect(Set(all.map(\.matrix)).count == 24)
        for m in all {
            #expect(m.matrix.determinant == 1, "\(m.name): det \(m.matrix.determinant)")
            let product = m.matrix * m.matrix.transposed
            #expect(product == Matrix3.identity, "\(m.name) is not orthonormal")
            for row in m.matrix.rows {
                #expect(row.allSatisfy { $0 == 0 || $0 == 1 || $0 == -1 })
            }
        }
    }

    @Test("the default is first: flat, components up, X forward = (x, −y, −z)")
    func defaultMounting() {
        #expect(MountingOrientation.allNamed.first == .componentSideUp)
        #expect(MountingOrientation.componentSideUp.toBody(Vector3(1, 2, 3)) == Vector3(1, -2, -3))
        #expect(MountingOrientation.componentSideUp.summary == "flat, components up, X arrow pointing forward")
    }

    @Test("each name says where the chip's X arrow and Z axis point in the vehicle")
    func namesMeanWhatTheySay() throws {
        for m in MountingOrientation.allNamed {
            let parts = m.name.split(separator: "-").map(String.init)
            try #require(parts.count == 4 && parts[0] == "x" && parts[2] == "z", "name shape: \(m.name)")
            let x = try #require(direction[parts[1]]), z = try #require(direction[parts[3]])
            #expect(m.toBody(Vector3(1, 0, 0)) == x, "\(m.name): chip X")
            #expect(m.toBody(Vector3(0, 0, 1)) == z, "\(m.name): chip Z")
            // Chip Y completes a right-handed set: y = z × x.
            #expect(m.toBody(Vector3(0, 1, 0)) == z.cross(x), "\(m.name): chip Y")
            #expect(m.toChip(m.toBody(Vector3(0.3, -1.2, 2.5))).isApproximatelyEqual(to: Vector3(0.3, -1.2, 2.5), absoluteTolerance: 1e-12))
        }
    }

    @Test("names round-trip through named(_:), forgiving case, spaces and underscores")
    func roundTrip() throws {
        for m in MountingOrientation.allNamed {
            #expect(try MountingOrientation.named(m.name) == m)
            #expect(try MountingOrientation.named(m.name.uppercased().replacingOccurrences(of: "-", with: "_")) == m)
        }
        #expect(try MountingOrientation.named("X Right Z Down").name == "x-right-z-down")
    }

    @Test("aliases: the default board turned by yaw, pitch and roll", arguments: [
        ("default", "x-forward-z-up"), ("flat", "x-forward-z-up"),
        ("yaw90", "x-right-z-up"), ("yaw180", "x-back-z-up"), ("yaw270", "x-left-z-up"),
        ("roll90", "x-forward-z-right"), ("roll180", "x-forward-z-down"), ("roll270", "x-forward-z-left"),
        ("pitch90", "x-up-z-back"), ("pitch180", "x-back-z-down"), ("pitch270", "x-down-z-forward"),
        ("roll180-yaw90", "x-right-z-down"), ("roll180-yaw180", "x-back-z-down"),
        ("roll180-yaw270", "x-left-z-down"), ("upside-down", "x-forward-z-down"),
    ])
    func aliases(alias: String, expected: String) throws {
        #expect(try MountingOrientation.named(alias).name == expected)
    }

    @Test("every alias listed is accepted, and agrees with rotating the default board")
    func aliasesAgreeWithRotation() throws {
        for a in MountingOrientation.aliases {
            let turn = Matrix3.rotation(roll: radians(a.roll), pitch: radians(a.pitch), yaw: radians(a.yaw))
            let expected = turn * MountingOrientation.componentSideUp.matrix
            let m = try MountingOrientation.named(a.alias)
            for i in 0..<3 {
                for j in 0..<3 { #expect(abs(m.matrix[i, j] - expected[i, j]) < 1e-9, "\(a.alias)") }
            }
        }
    }

    @Test("an unknown name: a suggestion and the full list of valid names")
    func unknownName() {
        #expect(throws: OrientationError.unknownName("x-forward-z-upp", suggestion: "x-forward-z-up")) {
            try MountingOrientation.named("x-forward-z-upp")
        }
        do {
            _ = try MountingOrientation.named("sideways")
            Issue.record("accepted 'sideways'")
        } catch {
            for m in MountingOrientation.allNamed { #expect(error.message.contains(m.name)) }
            #expect(error.message.contains("yaw90"))
            #expect(error.exitCode == .usage)
        }
    }

    @Test("custom(matrix:) accepts rotations and names the axis-aligned ones")
    func customAccepted() throws {
        let turn = Matrix3.rotation(roll: radians(5), pitch: radians(-12), yaw: radians(33))
        let custom = try MountingOrientation.custom(matrix: turn)
        #expect(custom.name == "custom")
        #expect(custom.matrix.determinant.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-12))
        let swapped = try #require(Matrix3([[0, 1, 0], [1, 0, 0], [0, 0, -1]]))
        #expect(try MountingOrientation.custom(matrix: swapped).name == "x-right-z-up")
        // Four decimals, as a profile might store them, still pass and come out orthonormal.
        let rounded = try #require(Matrix3(turn.rows.map { $0.map { ($0 * 1e4).rounded() / 1e4 } }))
        let cleaned = try MountingOrientation.custom(matrix: rounded).matrix
        let product = cleaned * cleaned.transposed
        for i in 0..<3 {
            for j in 0..<3 { #expect(abs(product[i, j] - (i == j ? 1 : 0)) < 1e-12) }
        }
    }

    @Test("custom(matrix:) refuses scalings, shears, reflections and NaN")
    func customRefused() throws {
        #expect(throws: OrientationError.self) { try MountingOrientation.custom(matrix: Matrix3.identity * 1.1) }
        let shear = try #require(Matrix3([[1, 0.2, 0], [0, 1, 0], [0, 0, 1]]))
        #expect(throws: OrientationError.self) { try MountingOrientation.custom(matrix: shear) }
        #expect(throws: OrientationError.reflection) {
            try MountingOrientation.custom(matrix: Matrix3.diagonal(Vector3(1, 1, -1)))
        }
        var broken = Matrix3.identity
        broken[1, 1] = .nan
        #expect(throws: OrientationError.notFinite) { try MountingOrientation.custom(matrix: broken) }
        #expect(OrientationError.reflection.exitCode == .dataError)
    }
}
