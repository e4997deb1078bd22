import Foundation
import Testing
import TestSupport

/// Every example in README.md that needs neither a sensor, gpsd nor a network runs, ends well, and
/// prints what the README shows after `# ⇒` (`…` standing for what varies), so the README cannot
/// drift from the program (issue #26: the `goto` example printed 16,614 km while the README said 3.20 km).
@Suite("README examples")
struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible {
        var line: Int
        var command: String
        /// What the README shows it prints (after `# ⇒`, with its continuation lines); nil: a comment
        /// that says what it does, or none.
        var shows: String?
        var description: String { "README.md:\(line): \(command)" }
    }

    /// The `lodestone …` lines of the README's `sh` blocks, with their comments.
    static func examples() throws -> [Example] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [Example] = []
        var inShell = false
        var pendingCommand: Example?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            if raw.hasPrefix("```") { inShell = raw == "```sh"; continue }
            guard inShell else { continue }
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if var open = pendingCommand {
                // A command continued with a backslash.
                let (code, comment) = split(trimmed)
                open.command += " " + code
                if let comment { open.shows = shown(comment) }
                if code.hasSuffix("\\") { open.command.removeLast(); pendingCommand = open } else {
                    examples.append(open)
                    pendingCommand = nil
                }
                continue
            }
            if trimmed.hasPrefix("lodestone ") {
                let (code, comment) = split(trimmed)
                var example = Example(line: index + 1, command: code, shows: comment.flatMap(shown))
                if code.hasSuffix("\\") {
                    example.command.removeLast()
                    pendingCommand = example
                } else {
                    examples.append(example)
                }
            } else if trimmed.hasPrefix("#"), raw.hasPrefix(" "), let last = examples.indices.last,
                      examples[last].shows != nil {
                examples[last].shows! += " " + trimmed.dropFirst()
            }
        }
        return examples
    }

    /// The command and its comment ("  # …"), outside quotes.
    static func split(_ line: String) -> (String, String?) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let c = line[index]
            if let q = quote { if c == q { quote = nil } }
            else if c == "'" || c == "\"" { quote = c }
            else if c == "#", previous == " " {
                return (String(line[..<index]).trimmingCharacters(in: .whitespaces),
                        String(line[line.index(after: index)...]).trimmingCharacters(in: .whitespaces))
            }
            previous = c
        }
        return (line.trimmingCharacters(in: .whitespaces), nil)
    }

    static func shown(_ comment: String) -> String? {
        comment.hasPrefix("⇒") ? String(comment.dropFirst()).trimmingCharacters(in: .whitespaces) : nil
    }

    /// True when the example needs nothing outside the program: the simulator, the gazetteer, the
    /// models, or a file an earlier example wrote.
    static func runsOffline(_ command: String) -> Bool {
        let words = command.split(separator: " ").map(String.init)
        guard words.count > 1 else { return false }
        switch words[1] {
        case "calibrate": return false   // the wizard wants a terminal (the tmux tests drive it)
        case "declination", "geod", "analyze": return true
        case "places": return words.count > 2 && (words[2] == "near" || words[2] == "find")
        default: return words.contains("--simulate")
        }
    }

    /// The text without whitespace: the README wraps long output over comment lines.
    static func normalised(_ text: String) -> String {
        String(text.filter { !$0.isWhitespace })
    }

    @Test("the README has examples with output to check")
    func found() throws {
        let examples = try Self.examples()
        #expect(examples.filter { Self.runsOffline($0.command) && $0.shows != nil }.count >= 8)
        #expect(examples.contains { $0.command.hasPrefix("lodestone goto") && Self.runsOffline($0.command) })
    }

    @Test("each offline example runs and prints what the README shows")
    func run() throws {
        let folder = try makeTemporaryFolder("readme-examples")
        defer { try? FileManager.default.removeItem(at: folder) }
        let binaries = URL(fileURLWithPath: lodestoneBinaryPath).deletingLastPathComponent().path
        let environment = ["PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                           "HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "LANG": "C.UTF-8"]
        for example in try Self.examples() where Self.runsOffline(example.command) {
            // Live commands run until SIGTERM (a clean end, exit 0) unless they end by themselves.
            let shell = example.command.contains("|") ? example.command : "exec " + example.command
            let result = try runProgram("/bin/sh", ["-c", "cd '\(folder.path)' && " + shell], timeout: 30,
                                        environment: environment, signalAfter: 4)
            #expect(result.status == 0, "\(example): exit \(result.status)\n\(result.stderr)")
            #expect(!result.stdout.isEmpty || example.command.contains("log "), "\(example) printed nothing")
            guard let shows = example.shows else { continue }
            let output = Self.normalised(result.stdout)
            var rest = output[...]
            for fragment in Self.normalised(shows).components(separatedBy: "…")
                where !fragment.isEmpty {
                guard let found = rest.range(of: fragment) else {
                    Issue.record("\(example): the README shows '\(fragment)', which is not in the output:\n\(result.stdout)")
                    break
                }
                rest = rest[found.upperBound...]
            }
        }
    }
}
