import Foundation
import Glibc
import Platform
import Testing

@Suite("spawned commands (a region's --on-enter)") struct SpawnTests {
    /// Waits for `pid` to end, up to 10 s; true when it ended.
    private func waitForExit(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        for _ in 0..<1000 {
            if waitpid(pid, &status, WNOHANG) == pid { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func theCommandGetsItsEnvironmentAndNoneOfOurDescriptors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        // A socket opened the careless way (no close-on-exec): the command must still not hold it.
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socketFD >= 3)
        defer { close(socketFD) }
        let command = #"if [ -e /proc/$$/fd/$HELD ]; then r=inherited; else r=clean; fi; echo "$r $LODESTONE_REGION" > "$OUT""#
        let pid = try #require(spawnShellCommand(command, environment: [
            ("HELD", String(socketFD)), ("OUT", out), ("LODESTONE_REGION", "home; rm -rf /"),
        ]))
        #expect(waitForExit(pid))
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written == "clean home; rm -rf /\n")
    }

    /// A long-running command blocks SIGINT, SIGTERM, SIGHUP and SIGWINCH and ignores SIGPIPE; the
    /// command it starts must not inherit that, or SIGTERM could never end it.
    @Test func theCommandStartsWithAnEmptySignalMaskAndDefaultActions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&blocked, s) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let oldPipe = signal(SIGPIPE, SIG_IGN)
        let pid = spawnShellCommand(#"exec grep -E '^Sig(Blk|Ign):' /proc/self/status > "$OUT""#, environment: [("OUT", out)])
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        signal(SIGPIPE, oldPipe)
        #expect(waitForExit(try #require(pid)))
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            // Signals 1–31: glibc keeps 32 and 33 for itself, and a child cannot change those.
            let mask = UInt64(line.split(separator: "\t").last.map(String.init) ?? "", radix: 16).map { $0 & 0x7fff_ffff }
            #expect(mask == 0, "\(line)")
        }
    }
}
