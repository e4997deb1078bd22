@testable import GNSS
import Testing

@Suite("gpsd address and errors")
struct GpsdAddressTests {
    @Test func parsesTheUsualForms() throws {
        #expect(try GpsdAddress(parsing: "127.0.0.1:2947") == GpsdAddress(host: "127.0.0.1", port: 2947))
        #expect(try GpsdAddress(parsing: "pi.local") == GpsdAddress(host: "pi.local", port: 2947))
        #expect(try GpsdAddress(parsing: "gps-box:3000") == GpsdAddress(host: "gps-box", port: 3000))
        #expect(try GpsdAddress(parsing: "[::1]:2948") == GpsdAddress(host: "::1", port: 2948))
        #expect(try GpsdAddress(parsing: "[fe80::1%eth0]") == GpsdAddress(host: "fe80::1%eth0", port: 2947))
        #expect(try GpsdAddress(parsing: "::1") == GpsdAddress(host: "::1", port: 2947))
        #expect(GpsdAddress.default.description == "127.0.0.1:2947")
        #expect(GpsdAddress(host: "::1", port: 5).description == "[::1]:5")
    }

    @Test(arguments: ["", ":2947", "host:", "host:0", "host:70000", "host:abc", "[::1", "[::1]x", "bad host;rm"])
    func rejectsMalformedAddresses(text: String) {
        #expect(throws: GNSSError.invalidAddress(text)) { try GpsdAddress(parsing: text) }
    }

    @Test func messagesSayWhatToDo() {
        let a = GpsdAddress.default
        let unreachable = GNSSError.cannotConnect(a).message
        #expect(unreachable.hasPrefix("cannot reach gpsd at 127.0.0.1:2947: is it running?"))
        #expect(unreachable.contains("sudo systemctl start gpsd"))
        #expect(unreachable.contains("--simulate"))
        #expect(GNSSError.cannotConnect(a).exitCode == .unavailable)
        #expect(GNSSError.connectionLost(a).message.contains("retrying"))
        #expect(GNSSError.invalidAddress("x:y").message.contains("HOST:PORT"))
        #expect(GNSSError.invalidAddress("x:y").exitCode == .usage)
        let typo = GNSSError.cannotResolve(GpsdAddress(host: "pi.lcoal", port: 2947))
        #expect(typo.message.hasPrefix("cannot resolve gpsd's host 'pi.lcoal'") && typo.message.contains("IP address"))
        #expect(typo.exitCode == .unavailable && typo.isUnreachable && !GNSSError.connectionLost(a).isUnreachable)
    }

    @Test func aNameThatDoesNotResolveIsSaidSo() {
        // .invalid never resolves (RFC 6761): told apart from a refused connection.
        let session = GpsdSession()
        #expect(throws: GNSSError.cannotResolve(GpsdAddress(host: "no-such-gpsd.invalid", port: 2947))) {
            try session.open(GpsdAddress(host: "no-such-gpsd.invalid", port: 2947))
        }
    }

    @Test func fixModesOrderAndParse() {
        #expect(FixMode.noFix < .twoD && FixMode.twoD < .threeD)
        #expect(FixMode(gpsdMode: 0) == .noFix)
        #expect(FixMode(gpsdMode: 3) == .threeD)
        #expect(FixMode(gpsdMode: 17) == .noFix)
        #expect(FixMode(name: "3D") == .threeD)
        #expect(FixMode(name: "2d") == .twoD)
        #expect(FixMode(name: "4d") == nil)
    }
}
