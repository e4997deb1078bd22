import Attitude
import Foundation
import Linear
import Testing

@Suite struct QuaternionTests {
    @Test func headingRotationTurnsNorthToEast() {
        let q = Quaternion(headingRadians: .pi / 2)
        let v = q.rotate(Vector3(1, 0, 0))
        #expect(abs(v.x) < 1e-12 && abs(v.y - 1) < 1e-12 && abs(v.z) < 1e-12)
    }

    @Test func eulerRoundTripsThroughAngles() {
        for (roll, pitch, heading) in [(10.0, 20.0, 30.0), (-170.0, 45.0, 359.0), (179.0, -80.0, 0.5), (0.0, 0.0, 180.0)] {
            let q = Quaternion(rollDegrees: roll, pitchDegrees: pitch, headingDegrees: heading)
            let a = AttitudeEstimate.angles(of: q, pitchLimit: 88)
            #expect(abs(remainder(a.roll - roll, 360)) < 1e-9)
            #expect(abs(a.pitch - pitch) < 1e-9)
            #expect(abs(remainder((a.heading ?? .nan) - heading, 360)) < 1e-9)
        }
    }

    @Test(arguments: [1e-12, 1e-4, 0.05, 0.15, 0.199, 0.2, 0.21, 3.0])
    func rotationVectorIsExactAtAnyAngle(angle: Double) {
        let axis = Vector3(0.3, -0.5, 0.8).normalized!
        let q = Quaternion(rotationVector: axis * angle)
        #expect(abs(q.w - cos(angle / 2)) < 1e-15)
        #expect(abs(q.y - axis.y * sin(angle / 2)) < 1e-15)
        #expect(abs((q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z) - 1) < 1e-15)
    }

    @Test func renormalizedRestoresUnitNorm() {
        let q = Quaternion(w: 0.5 * (1 + 3e-7), x: 0.5 * (1 + 3e-7), y: -0.5 * (1 + 3e-7), z: 0.5 * (1 + 3e-7))
        let r = q.renormalized
        #expect(abs((r.w * r.w + r.x * r.x + r.y * r.y + r.z * r.z) - 1) < 1e-12)
        let far = Quaternion(w: 2, x: 0, y: 0, z: 0).renormalized
        #expect(far == .identity)
        #expect(Quaternion(w: .nan, x: 0, y: 0, z: 0).renormalized == .identity)
    }

    @Test func rotationVectorMatchesAxisAngle() {
        let a = Quaternion(rotationVector: Vector3(0, 0.3, 0))
        let b = Quaternion(axis: Vector3(0, 1, 0), angle: 0.3)
        #expect(a.angleDegrees(to: b) < 1e-9)
        #expect(a.matrix.isFinite)
    }
}
