import Glibc
import Options
import Platform
import Session

/// Finds the subcommand, parses its arguments, runs it, and turns errors into messages and exit codes.
enum Dispatcher {
    static func run(_ arguments: [String], in context: CommandContext = .process()) -> ExitCode {
        guard let first = arguments.first else {
            context.error(overview())
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            if first == "help", arguments.count == 2, arguments[1] == "--man" {
                // For maintainers: `make build` and `make deb` install the man page this prints.
                context.output.write(manPage(for: lodestoneInterface, date: buildDate()))
            } else if first == "help", arguments.count > 1 {
                guard let command = find(arguments[1]) else { return unknown(arguments[1], prefix: "lodestone help: ", in: context) }
                context.output.write(helpText(for: command.spec))
            } else {
                context.output.write(overview())
            }
            return .success
        case "--version", "-V", "version":
            context.output.write(versionText())
            return .success
        default:
            break
        }
        guard let command = find(first) else { return unknown(first, prefix: "lodestone: ", in: context) }
        do {
            let parsed = try parseArguments(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.helpRequested {
                context.output.write(helpText(for: command.spec))
                return .success
            }
            // One standard output for the whole command: a write that failed (disk full, I/O
            // error, a file-size limit) ends it with 74 and names standard output; a reader that
            // went away (EPIPE) is a quiet, normal end.
            let status = try command.run(parsed, in: context)
            if let e = (context.output as? StandardOutput)?.failure, e != EPIPE {
                let failure = OutputFailure(name: "standard output", errno: e)
                context.error("lodestone \(command.spec.name): " + failure.message)
                return failure.exitCode
            }
            return status
        } catch let error as UsageError {
            context.error(sanitize("lodestone \(command.spec.name): " + error.message, keepingLineBreaks: true))
            return .usage
        } catch let error as any UserFacingError {
            context.error(sanitize("lodestone \(command.spec.name): " + error.message, keepingLineBreaks: true))
            return error.exitCode
        } catch {
            context.error(sanitize("lodestone \(command.spec.name): unexpected error: \(error)", keepingLineBreaks: true))
            return .software
        }
    }

    /// An unknown command (or `help` topic): said with the closest command's name, exit 64.
    static func unknown(_ name: String, prefix: String, in context: CommandContext) -> ExitCode {
        let error = UsageError.unknownCommand(name, suggestion: closestMatch(to: name, in: allCommands.map { $0.spec.name }))
        context.error(sanitize(prefix + error.message, keepingLineBreaks: true))
        return .usage
    }

    static func find(_ name: String) -> (any Command.Type)? {
        allCommands.first { $0.spec.name == name }
    }

    static func overview() -> String {
        overviewText(for: lodestoneInterface)
    }
}
