import Foundation
import Glibc
import Testing
import TestSupport

public let socatPath: String? = findExecutable("socat")

/// `lodestone serve --nmea serial:PTY?baud=4800` feeding a real gpsd that reads the other end of a
/// pty pair (made by socat) as its serial device; the pair vanishes and returns, and serve carries on.
@Suite("serve on a serial line, read by a real gpsd", .serialized,
       .enabled(if: gpsdPath != nil && socatPath != nil,
                Comment(rawValue: "gpsd or socat is not installed (Debian packages gpsd and socat); 'make test' installs them — skipping")))
struct ServeSerialTests {
    /// A pty pair: what is written to `writer` comes out of `reader`, one way only (socat -u).
    final class PtyPair {
        let process: BackgroundProcess
        let writer: String, reader: String
        init(folder: URL) throws {
            writer = folder.appendingPathComponent("lodestone-end").path
            reader = folder.appendingPathComponent("gpsd-end").path
            process = try BackgroundProcess(executable: socatPath ?? "socat",
                                            ["-u", "pty,raw,echo=0,link=\(writer)", "pty,raw,echo=0,link=\(reader)"])
        }
        func waitUntilReady() -> Bool { pollUntil(10) { FileManager.default.fileExists(atPath: writer) && FileManager.default.fileExists(atPath: reader) } }
        func stop() { process.stop(timeout: 5) }
    }

    /// The ATT reports with a heading a gpsd on this device gives a watching client within `seconds`.
    static func headings(device: String, seconds: Double) throws -> ([Double], String) {
        let port = freeTCPPort()
        let gpsd = try BackgroundProcess(executable: gpsdPath ?? "gpsd", ["-b", "-N", "-n", "-S", String(port), device])
        defer { gpsd.stop(timeout: 0, signal: SIGKILL) }
        guard pollUntil(15, { acceptsConnections(port) }) else { return ([], gpsd.stderr) }
        let watch = readTCP(port: port, seconds: seconds, request: #"?WATCH={"enable":true,"json":true}"# + "\n") {
            $0.components(separatedBy: #""class":"ATT""#).count > 12
        }
        let values = watch.split(whereSeparator: \.isNewline).map(String.init)
            .filter { gpsdMemberText("class", in: $0) == "ATT" }
            .compactMap { gpsdMemberText("heading", in: $0).flatMap(Double.init) }
        return (values, watch)
    }

    @Test("gpsd reads the true heading from the pty at 4800 baud; the pty vanishes and returns, serve goes on")
    func gpsdReadsTheSerialLine() throws {
        let folder = try makeTemporaryFolder("lodestone-serial")
        defer { try? FileManager.default.removeItem(at: folder) }
        var pair = try PtyPair(folder: folder)
        #expect(pair.waitUntilReady(), "socat made no pty pair: \(pair.process.stderr)")
        let tcpPort = freeTCPPort()
        let serve = try BackgroundProcess(["serve", "--simulate", "--no-gnss", "--location", "-33.87,151.21", "--rate", "10",
                                           "--duration", "60", "--nmea", "serial:\(pair.writer)?baud=4800",
                                           "--nmea", "tcp://127.0.0.1:\(tcpPort)"])
        defer { serve.stop(timeout: 0, signal: SIGKILL) }
        #expect(pollUntil(15) { serve.stderr.contains("publishing NMEA 0183 on serial:\(pair.writer)?baud=4800") }, "\(serve.stderr)")
        let (first, log) = try Self.headings(device: pair.reader, seconds: 12)
        #expect(first.count > 10, "gpsd gave \(first.count) ATT headings: \(log.suffix(2000))\nserve: \(serve.stderr)")
        #expect(first.allSatisfy { (0..<360).contains($0) })
        // The line's capacity: 4800 baud cannot carry 10 updates of five sentences; the share is said.
        #expect(pollUntil(15) { serve.stderr.contains("% of them (heading HDG/HDT") }, "\(serve.stderr)")

        // The pty vanishes (socat ends, the links go): serve says so, the TCP output goes on.
        pair.stop()
        #expect(pollUntil(10) { serve.stderr.contains("the serial port \(pair.writer) failed") }, "\(serve.stderr)")
        let tcp = readTCP(port: tcpPort, seconds: 3)
        #expect(tcp.components(separatedBy: "HDG").count > 10, "the TCP output waited for the serial line: \(tcp.prefix(300))")
        // It returns under the same name: serve opens it again and gpsd reads headings once more.
        pair = try PtyPair(folder: folder)
        #expect(pair.waitUntilReady())
        #expect(pollUntil(10) { serve.stderr.contains("the serial port \(pair.writer) is back") }, "\(serve.stderr)")
        let (second, log2) = try Self.headings(device: pair.reader, seconds: 12)
        #expect(second.count > 10, "after the return gpsd gave \(second.count) ATT headings: \(log2.suffix(2000))")
        pair.stop()
        #expect(serve.stop(timeout: 10) == 0, "\(serve.stderr)")
    }

    /// Two serial sinks on one port, and Signal K on a serial line: usage errors of the option parser
    /// (in process, through the dispatcher).
    /// (A path that is not a serial port is refused by the session: ServeRefusalsInProcessTests.)
    @Test("one port named twice, or Signal K on a serial line, is refused (64)")
    func serialUsageErrors() throws {
        let twice = try runInProcess(["serve", "--simulate", "--nmea", "/dev/ttyUSB7", "--nmea", "serial:/dev/ttyUSB7?baud=9600"])
        #expect(twice.status == 64, "\(twice.stderr)")
        let signalK = try runInProcess(["serve", "--simulate", "--signalk", "serial:/dev/ttyUSB7"])
        #expect(signalK.status == 64, "\(signalK.stderr)")
    }
}
