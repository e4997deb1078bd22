import Foundation
import Glibc
import Platform
import Session
import TestSupport
@testable import lodestone

extension SessionHarness {
    /// Runs `lodestone ARGUMENTS` in process, as the binary does from the parser to the exit status
    /// (`main.swift` adds only the process's signal dispositions and `exit`): the dispatcher's help,
    /// usage errors and messages, and the command's session on this harness's manual clock,
    /// scripted signals, captured output and private config folder. `stdin` becomes standard input;
    /// `environment` is added to the harness's. What it returns is this run's text only.
    ///
    /// ```swift
    /// let harness = try SessionHarness("declination")
    /// let result = try harness.lodestone(["declination", "--lat", "52", "--lon", "0"])
    /// #expect(result.status == 0)
    /// ```
    func lodestone(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> RunResult {
        var input: Int32 = -1
        if let stdin {
            let file = path("standard-input-\(UUID().uuidString.prefix(8))")
            try stdin.write(toFile: file, atomically: true, encoding: .utf8)
            input = open(file, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw POSIXError(.ENOENT) }
        }
        defer { if input >= 0 { close(input) } }
        let outputStart = output.text.utf8.count, diagnosticsStart = diagnostics.text.utf8.count
        let status = Dispatcher.run(arguments, in: context(input: input, environment: environment))
        return RunResult(status: status.rawValue,
                         stdout: String(decoding: output.text.utf8.dropFirst(outputStart), as: UTF8.self),
                         stderr: String(decoding: diagnostics.text.utf8.dropFirst(diagnosticsStart), as: UTF8.self))
    }
}

extension SessionHarness {
    /// The dispatcher's and the commands' world as this harness: its captured output and
    /// diagnostics, and its runtime (with `input` as standard input) for every command.
    func context(input: Int32 = -1, environment: [String: String] = [:]) -> CommandContext {
        CommandContext(output: output, errors: diagnostics,
                       environment: runtime("lodestone", environment: environment).environment) { command, _ in
            var runtime = self.runtime(command, environment: environment)
            runtime.input = input
            return runtime
        }
    }
}

/// `lodestone ARGUMENTS` in process in a world of its own (a fresh `SessionHarness`: manual clock,
/// private config folder, a stop after `deadline` simulated seconds), as `runLodestone` runs the
/// binary.
func runInProcess(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                  deadline: Double = 600) throws -> RunResult {
    try SessionHarness("in-process", deadline: deadline).lodestone(arguments, stdin: stdin, environment: environment)
}
