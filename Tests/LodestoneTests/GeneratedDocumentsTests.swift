import Foundation
import Options
import Testing
import TestSupport
@testable import lodestone

/// The man page and the completion scripts of the real command line, generated from the registered
/// commands: every command and option is in each, the shells accept the scripts, groff renders the
/// page without a warning, and the binary prints the same text.
@Suite("generated man page and completions")
struct GeneratedDocumentsTests {
    /// A command line with the characters the formats must escape, checked by the real tools too.
    static let awkward = ProgramInterface(
        name: "lodestone", version: "9.9", summary: "awkward – text",
        description: ".dot first\n'quote first\n  example --x",
        commands: [CommandSpec(name: "a-b", abstract: "it's [odd]: \"very\"", options: [Option("x", short: "x", value: "FILE", help: "a\\b 'c' [d] e:f $g `h` 10°"),
                                         Option("y", value: "A:B", repeatable: true, choices: ["p-q", "r_s"], help: "y")],
                               positionals: ["FILE"], discussion: "  - list\n.x")])

    static var interfaces: [ProgramInterface] { [lodestoneInterface, awkward] }

    @Test("every registered command and option is in the man page and each completion script")
    func everythingIsThere() {
        let interface = lodestoneInterface
        #expect(interface.commands.map(\.name) == allCommands.map { $0.spec.name })
        let page = manPage(for: interface, date: nil)
        let scripts = CompletionShell.allCases.map { ($0, completionScript(for: interface, shell: $0)) }
        for command in allCommands {
            let spec = command.spec
            #expect(page.contains(".SS \"lodestone \(spec.name)\""), "man page lacks \(spec.name)")
            for (shell, script) in scripts {
                #expect(script.contains(shell == .fish ? "'\(spec.name)'" : "'\(spec.name)"), "\(shell) lacks \(spec.name)")
            }
            for option in spec.options {
                let roff = "\\fB\\-\\-" + option.name.replacing("-", with: "\\-") + "\\fR"
                #expect(page.contains(roff), "man page lacks \(spec.name) --\(option.name)")
                for (shell, script) in scripts {
                    let spelled = shell == .fish ? "-l '\(option.name)'" : "--\(option.name)"
                    #expect(script.contains(spelled), "\(shell) lacks \(spec.name) --\(option.name)")
                }
            }
        }
    }

    @Test("bash accepts the script and completes commands, options and values")
    func bashCompletes() throws {
        let bash = try #require(executablePath(named: "bash"))
        for interface in Self.interfaces {
            let check = try runProgram(bash, ["-n"], stdin: completionScript(for: interface, shell: .bash))
            #expect(check.status == 0, "\(check.stderr)")
        }
        let script = completionScript(for: lodestoneInterface, shell: .bash)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
            let program = script + """
            complete -p lodestone >/dev/null || exit 3
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _lodestone
            printf '%s\\n' "${COMPREPLY[@]}"
            """
            let result = try runProgram(bash, ["--norc", "--noprofile"], stdin: program)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["lodestone", "wat"]) == ["watch"])
        #expect(try complete(["lodestone", "--ver"]) == ["--version"])
        #expect(try complete(["lodestone", "watch", "--un"]) == ["--units"])
        #expect(try complete(["lodestone", "watch", "--units", ""]) == ["metric", "imperial", "nautical"])
        #expect(try complete(["lodestone", "track", "--format", "j"]) == ["json"])
        #expect(try complete(["lodestone", "completion", "z"]) == ["zsh"])
        #expect(try complete(["lodestone", "help", "dec"]) == ["declination"])
        #expect(try complete(["lodestone", "watch", "--rate", ""]) == [])
        #expect(try complete(["lodestone", "places", "n"]) == ["near"])
        #expect(try complete(["lodestone", "places", "--count", "3", "f"]) == ["find"])
        #expect(try complete(["lodestone", "places", ""]) == ["near", "find", "add", "list", "remove"])
    }

    @Test("bash offers saved place names after goto, --region and places remove (from places list --names)")
    func bashCompletesPlaces() throws {
        let bash = try #require(executablePath(named: "bash"))
        let folder = try makeTemporaryFolder("completion-places")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lodestone"), withIntermediateDirectories: true)
        try "Home,52.3702,4.8952,50\nHoorn harbour,52.6425,5.0597\nWork,52.1,4.3\n"
            .write(to: folder.appendingPathComponent("lodestone/places.csv"), atomically: true, encoding: .utf8)
        let script = completionScript(for: lodestoneInterface, shell: .bash)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = ([lodestoneBinaryPath] + words).map { "'" + $0 + "'" }.joined(separator: " ")
            let program = script + """
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)
            _lodestone
            printf '%s\\n' "${COMPREPLY[@]}"
            """
            let result = try runProgram(bash, ["--norc", "--noprofile"], stdin: program,
                                        environment: ["XDG_CONFIG_HOME": folder.path])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["goto", ""]) == ["Home", "Hoorn harbour", "Work"])
        #expect(try complete(["goto", "Ho"]) == ["Home", "Hoorn harbour"])
        #expect(try complete(["goto", "--format", "csv", "W"]) == ["Work"])
        #expect(try complete(["regions", "--region", "H"]) == ["Home", "Hoorn harbour"])
        #expect(try complete(["watch", "--region", "W"]) == ["Work"])
        #expect(try complete(["places", "remove", "Hoo"]) == ["Hoorn harbour"])
        let names = try runLodestone(["places", "list", "--names"], environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(names.stdout == "Home\nHoorn harbour\nWork\n")
    }

    /// A saved place's name is offered as it is, never run: compgen -W expanded $(…) and `…` in it,
    /// so completing after goto ran what a places file named.
    @Test("bash completion never runs what a saved place's name holds")
    func bashCompletionDoesNotExpandPlaceNames() throws {
        let bash = try #require(executablePath(named: "bash"))
        let folder = try makeTemporaryFolder("completion-hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lodestone"), withIntermediateDirectories: true)
        let marker = folder.appendingPathComponent("ran").path
        try "$(touch \(marker)),1,1\nHo`touch \(marker)`me,1,2\nHo$HOME,1,3\n"
            .write(to: folder.appendingPathComponent("lodestone/places.csv"), atomically: true, encoding: .utf8)
        let script = completionScript(for: lodestoneInterface, shell: .bash)
        let program = script + """
        COMP_WORDS=('\(lodestoneBinaryPath)' goto ''); COMP_CWORD=2
        _lodestone
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let result = try runProgram(bash, ["--norc", "--noprofile"], stdin: program, environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "completion ran a command from a place's name")
        #expect(result.stdout.split(separator: "\n").map(String.init)
            == ["$(touch \(marker))", "Ho`touch \(marker)`me", "Ho$HOME"], "\(result.stdout)")
    }

    @Test("zsh accepts the script", .enabled(if: executablePath(named: "zsh") != nil, "zsh is not installed (make test installs it)"))
    func zshParses() throws {
        for interface in Self.interfaces {
            let check = try runProgram(executablePath(named: "zsh")!, ["-n"], stdin: completionScript(for: interface, shell: .zsh))
            #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
        }
    }

    @Test("fish accepts the script and loads it", .enabled(if: executablePath(named: "fish") != nil, "fish is not installed (make test installs it)"))
    func fishLoads() throws {
        let fish = try #require(executablePath(named: "fish"))
        for interface in Self.interfaces {
            let script = completionScript(for: interface, shell: .fish)
            let check = try runProgram(fish, ["--no-execute"], stdin: script)
            #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
        }
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lodestone.fish").path
        try completionScript(for: lodestoneInterface, shell: .fish).write(toFile: file, atomically: true, encoding: .utf8)
        let loaded = try runProgram(fish, ["--no-config", "-c", "source \(file); complete -C 'lodestone watch --units '"],
                                    environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "XDG_DATA_HOME": folder.path])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == ["imperial", "metric", "nautical"])
    }

    @Test("groff renders the man page without a warning", .enabled(if: executablePath(named: "groff") != nil, "groff is not installed (make test installs groff-base)"))
    func manPageRenders() throws {
        let groff = try #require(executablePath(named: "groff"))
        for interface in Self.interfaces {
            let result = try runProgram(groff, ["-man", "-Tutf8", "-ww", "-z"], stdin: manPage(for: interface, date: "2026-12-01"))
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        }
        let text = try runProgram(groff, ["-man", "-Tutf8", "-P", "-cbou"], stdin: manPage(for: lodestoneInterface, date: nil))
        #expect(text.stdout.contains("lodestone watch"))
        #expect(text.stdout.contains("I²C"))
        #expect(text.stdout.contains("EXIT STATUS"))
    }

    @Test("the command line prints the same documents, and its version line (in process)")
    func binaryPrintsThem() throws {
        let version = try runInProcess(["--version"])
        #expect(version.status == 0)
        let line = version.stdout
        #expect(line.hasPrefix("lodestone \(lodestoneVersion) (commit "))
        #expect(line.contains(", built "))
        #expect(line.hasSuffix(")\n"))
        for shell in CompletionShell.allCases {
            let printed = try runInProcess(["completion", shell.rawValue])
            #expect(printed.status == 0)
            #expect(printed.stdout == completionScript(for: lodestoneInterface, shell: shell))
        }
        let page = try runInProcess(["help", "--man"])
        #expect(page.status == 0)
        #expect(page.stdout == manPage(for: lodestoneInterface, date: buildDate()))
        let wrong = try runInProcess(["completion", "tcsh"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("unknown shell 'tcsh'"))
    }
}
