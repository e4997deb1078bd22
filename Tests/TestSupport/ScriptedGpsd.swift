import Foundation
import Glibc
import Platform

/// A gpsd stand-in for tests that run a command in process: it listens on 127.0.0.1 and, to the
/// first client, writes gpsd's greeting (VERSION, then DEVICES and WATCH once asked to watch), then
/// every line it was given, then closes the connection and the port. Everything it had to say has
/// reached the client once the client pauses to reconnect (on the session's manual clock:
/// `SessionHarness.holdUntilGNSSPauses`). The lines are gpsd's JSON reports, e.g. the TPVs of one of
/// the fixtures' `.chk` files (gpsd's own output for the log).
///
/// ```swift
/// let gpsd = try ScriptedGpsd(lines: try gpsdReports(chk: "nl2008u.log.chk"))
/// harness.holdUntilGNSSPauses()
/// let run = try harness.lodestone(["track", "--gpsd", "127.0.0.1:\(gpsd.port)"])
/// ```
public final class ScriptedGpsd: @unchecked Sendable {
    public let port: UInt16
    private let listener: Int32
    private let finished = DispatchSemaphore(value: 0)
    /// Whether the listener is closed: under the lock, so a closed descriptor's number (which the
    /// process may already have given to another test's socket) is never shut down.
    private let lock = NSLock()
    private var closed = false

    /// `greets`: false for a peer that is not gpsd: it writes `lines` at once, without gpsd's
    /// greeting, to every client that connects.
    public init(lines: [String], greets: Bool = true) throws {
        (listener, port) = try listenOnLoopback()
        let thread = Thread { [self] in
            serve(lines, greets: greets)
            lock.withLock {
                close(listener)
                closed = true
            }
            finished.signal()
        }
        thread.start()
    }

    deinit {
        lock.withLock { if !closed { shutdown(listener, Int32(SHUT_RDWR)) } }
        finished.wait()
    }

    private func serve(_ lines: [String], greets: Bool) {
        // The first client within 30 s (a test that never connects still ends). A peer that is not
        // gpsd answers every client the same way, until the test is done with it.
        repeat {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 30_000) > 0, let client = acceptClosingOnExec(listener, nonblocking: false) else { return }
            defer { close(client) }
            guard !greets || GpsdGreeting.greet(client, sendTimeout: 5) else { return }
            _ = sendLines(client, lines)
        } while !greets
    }
}

/// gpsd's JSON reports in one of the fixtures' `.chk` files (its output for the NMEA log).
public func gpsdReports(chk: String) throws -> [String] {
    let text = try String(contentsOf: nmeaFolder.appendingPathComponent(chk), encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("{") }
}
