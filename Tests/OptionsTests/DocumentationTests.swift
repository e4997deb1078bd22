import Options
import Testing

/// An interface with the characters each generated format must escape: quotes, brackets, colons,
/// backslashes, a leading dot, non-ASCII text, a FILE value, choices, a repeatable option.
let awkwardInterface = ProgramInterface(
    name: "demo", version: "1.2.3", summary: "a demo – for tests",
    description: "First paragraph, with a 'quote'.\n.starts with a dot\n  demo run --fast\n\nSecond paragraph.",
    commands: [
        CommandSpec(name: "run", abstract: "run it: fast [or slow]", options: [
                        Option("fast", short: "f", help: "go \"fast\" (it's [really] fast: 10°)"),
                        Option("out", value: "FILE", help: "write to FILE\\here"),
                        Option("mode", value: "MODE", choices: ["a", "b", "a"], help: "a or b"),
                        Option("tag", value: "HOST:PORT", repeatable: true, help: "tags; more than one"),
                    ],
                    positionals: ["FILE.csv"],
                    discussion: "Notes.\n  demo run --fast   # example\n'quoted start"),
        CommandSpec(name: "shell", abstract: "pick a shell", options: [],
                    positionals: ["bash|zsh"]),
    ],
    overviewNotes: ["More: demo COMMAND --help"],
    sections: [ManSection("Files", "~/.demo: the settings")])

@Suite("man page and completions generated from the command specs")
struct DocumentationTests {
    @Test("the overview lists every command with its abstract, then the notes")
    func overview() {
        let text = overviewText(for: awkwardInterface)
        #expect(text.hasPrefix("demo 1.2.3: a demo – for tests\n"))
        #expect(text.contains("  run      run it: fast [or slow]\n"))
        #expect(text.contains("  shell    pick a shell\n"))
        #expect(text.hasSuffix("\nMore: demo COMMAND --help\n"))
    }

    @Test("the man page has every command and option, escaped for roff")
    func manPageContent() {
        let page = manPage(for: awkwardInterface, date: "2026-12-01")
        #expect(page.contains(".TH \"DEMO\" 1 \"2026-12-01\" \"demo 1.2.3\" \"User Commands\""))
        #expect(page.contains("demo \\- a demo \\[u2013] for tests"))
        for command in awkwardInterface.commands {
            #expect(page.contains(".SS \"demo \(command.name)\""))
            for option in command.options {
                #expect(page.contains("\\fB" + "--\(option.name)".replacing("-", with: "\\-") + "\\fR"))
            }
        }
        #expect(page.contains("\\fB\\-f\\fR, \\fB\\-\\-fast\\fR"))
        #expect(page.contains("\\fI" + "HOST:PORT" + "\\fR"))
        #expect(page.contains("(may be given more than once)"))
        #expect(page.contains("write to FILE\\ehere"))
        #expect(page.contains("10\\[u00B0]"))
        #expect(page.contains(".SH \"FILES\""))
        // Lines from the text never start a request by accident, and nothing outside ASCII is left.
        #expect(page.contains("\n\\&.starts with a dot\n"))
        #expect(page.contains("\n\\&'quoted start\n"))
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
        let requests = Set(page.split(separator: "\n").filter { $0.hasPrefix(".") }.map { $0.split(separator: " ")[0] })
        #expect(requests.isSubset(of: [".\\\"", ".TH", ".ad", ".nh", ".SH", ".SS", ".PP", ".TP", ".B", ".I", ".RI", ".br", ".RS", ".RE", ".nf", ".fi"]))
        // Examples are kept as lines, prose is filled.
        #expect(page.contains(".RS 2\n.nf\ndemo run \\-\\-fast\n.fi\n.RE"))
        // The usage, generated from the positionals and options, is one filled line.
        #expect(page.contains("\\fBdemo run\\fR FILE.csv [\\-\\-fast] [\\-\\-out FILE] [\\-\\-mode MODE]"))
    }

    @Test("an unknown build date leaves the title line's date empty")
    func manPageWithoutDate() {
        #expect(manPage(for: awkwardInterface, date: nil).contains(".TH \"DEMO\" 1 \"\" \"demo 1.2.3\""))
    }

    @Test("completion kinds: choices (once each), FILE-like values, flags, positionals")
    func valueCompletion() {
        let run = awkwardInterface.commands[0]
        #expect(run.options[0].valueCompletion == .none)
        #expect(run.options[1].valueCompletion == .files)
        #expect(run.options[2].valueCompletion == .words(["a", "b"]))
        #expect(run.options[3].valueCompletion == .none)
        #expect(run.positionalCompletion == .files)
        #expect(awkwardInterface.commands[1].positionalCompletion == .words(["bash", "zsh"]))
        #expect(CommandSpec(name: "g", abstract: "", options: [], positionals: ["LAT2|AZIMUTH"]).positionalCompletion == .none)
    }

    @Test("each shell's script names every command and option", arguments: CompletionShell.allCases)
    func completionContent(shell: CompletionShell) {
        let script = completionScript(for: awkwardInterface, shell: shell)
        for command in awkwardInterface.commands {
            #expect(script.contains(command.name))
            for option in command.options {
                #expect(script.contains(shell == .fish ? "-l '\(option.name)'" : "--\(option.name)"))
            }
        }
        #expect(script.contains("help"))
        #expect(script.contains("version"))
    }

    @Test("bash: values by option, files for FILE, choices offered")
    func bashDetails() {
        let script = completionScript(for: awkwardInterface, shell: .bash)
        #expect(script.contains("'--out') compopt -o filenames"))
        #expect(script.contains("'--mode') mapfile -t COMPREPLY < <(compgen -W 'a b' -- \"$cur\"); return 0 ;;"))
        #expect(script.contains("'--tag')  return 0 ;;"))
        #expect(script.contains("positional=('words:bash zsh')"))
        #expect(script.hasSuffix("complete -F _demo demo\n"))
    }

    @Test("zsh: brackets, colons and quotes in descriptions are escaped; short and long forms exclude each other")
    func zshDetails() {
        let script = completionScript(for: awkwardInterface, shell: .zsh)
        #expect(script.hasPrefix("#compdef demo\n"))
        #expect(script.contains("'(-f --fast)-f[go \"fast\" (it'\\''s \\[really\\] fast: 10°)]'"))
        #expect(script.contains("'*--tag[tags; more than one]:HOST\\:PORT: '"))
        #expect(script.contains("'--mode[a or b]:MODE:(a b)'"))
        #expect(script.contains("'--out[write to FILE\\\\here]:FILE:_files'"))
    }

    @Test("fish: quotes escaped, files only where a FILE is expected")
    func fishDetails() {
        let script = completionScript(for: awkwardInterface, shell: .fish)
        #expect(script.contains("complete -c demo -f\n"))
        #expect(script.contains("-s 'f' -l 'fast' -d 'go \"fast\" (it\\'s [really] fast: 10°)'"))
        #expect(script.contains("-l 'out' -r -F -d 'write to FILE\\\\here'"))
        #expect(script.contains("-l 'mode' -x -a 'a b'"))
        #expect(script.contains("-n '__fish_seen_subcommand_from run' -F"))
    }
}
