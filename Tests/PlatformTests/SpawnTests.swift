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
}
