import Foundation
import Platform
@testable import Session
import Testing
import TestSupport

/// What one session showed, as its command's process would: the exit status, standard output, and
/// standard error with an error's message after "lodestone COMMAND: ", control characters removed
/// (as the dispatcher prints it).
/// For the tests that used to spawn the binary and now call the command's session in process.
struct CommandRun {
    var status: ExitCode
    var stdout: String
    var stderr: String
    /// The error the session ended with, if any.
    var error: (any UserFacingError)?
}

extension SessionHarness {
    /// Runs `body` with this harness's runtime for `command` and returns what it wrote in this run
    /// only (the harness's buffers keep earlier runs' text). An error that is not a user-facing one
    /// is a failure of the test.
    func run(_ command: String, environment: [String: String] = [:], input: Int32 = -1,
             sourceLocation: SourceLocation = #_sourceLocation,
             _ body: (Runtime) throws -> ExitCode) -> CommandRun {
        let outputStart = output.text.utf8.count, diagnosticsStart = diagnostics.text.utf8.count
        var runtime = self.runtime(command, environment: environment)
        runtime.input = input
        var status = ExitCode.success
        var failure: (any UserFacingError)?
        do {
            status = try body(runtime)
        } catch let error as any UserFacingError {
            failure = error
            status = error.exitCode
        } catch {
            Issue.record("\(command): not an error a user can act on: \(error)", sourceLocation: sourceLocation)
            status = .software
        }
        var stderr = String(decoding: diagnostics.text.utf8.dropFirst(diagnosticsStart), as: UTF8.self)
        if let failure { stderr += sanitize("lodestone \(command): " + failure.message, keepingLineBreaks: true) + "\n" }
        return CommandRun(status: status, stdout: String(decoding: output.text.utf8.dropFirst(outputStart), as: UTF8.self), stderr: stderr, error: failure)
    }

    /// As `run`, with `stdin` as the session's standard input (`Runtime.input`), read from a file in
    /// the harness's folder.
    func run(_ command: String, stdin text: String, sourceLocation: SourceLocation = #_sourceLocation,
             _ body: (Runtime) throws -> ExitCode) throws -> CommandRun {
        let file = path("standard-input-\(UUID().uuidString.prefix(8))")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0, "cannot open \(file)", sourceLocation: sourceLocation)
        defer { close(fd) }
        return run(command, input: fd, sourceLocation: sourceLocation, body)
    }
}
