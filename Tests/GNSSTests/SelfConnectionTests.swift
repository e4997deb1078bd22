import Foundation
@testable import GNSS
import Testing

/// A TCP socket connected to itself (what connecting to a local port nobody listens on sometimes
/// gives) is told apart from a connection to a real peer.
@Suite("self-connected sockets")
struct SelfConnectionTests {
    func boundSocket() -> (fd: Int32, address: sockaddr_in) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, address)
    }

    @Test func aSocketConnectedToItselfIsRecognised() throws {
        var (fd, address) = boundSocket()
        defer { close(fd) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "the kernel connects a socket bound to a port to that same port")
        #expect(GpsdSession.isConnectedToItself(fd))
    }

    @Test func aConnectionToAListenerIsNot() throws {
        var (listener, address) = boundSocket()
        defer { close(listener) }
        try #require(listen(listener, 1) == 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        #expect(!GpsdSession.isConnectedToItself(client))
        #expect(!GpsdSession.isConnectedToItself(-1))
    }
}
