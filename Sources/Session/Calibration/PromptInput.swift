import Glibc
import Platform

/// Line input for the calibration prompts ("Save …? [Y/n]", "Bearing to the landmark: ") that a
/// signal can interrupt: with `SignalWatcher` the signals are blocked, so a plain blocking `read`
/// would not notice Ctrl-C. Works on a terminal and on a pipe.
///
/// ```swift
/// let input = PromptInput(inbox: inbox, runtime: runtime)
/// switch input.ask("Save to ~/.config/lodestone/calibration.json?", defaultYes: true) { … }
/// ```
final class PromptInput {
    enum Answer: Equatable {
        case yes, no
        /// End of input, or a stop signal.
        case interrupted
    }

    private let inbox: ControlInbox
    private var buffer: [UInt8] = []
    private var finished = false
    /// Where questions and the steps' text go (the session's standard output).
    let output: any TextOutput
    /// The descriptor answers are read from (the session's standard input; -1: none, end of input).
    private let fd: Int32

    init(inbox: ControlInbox, runtime: Runtime) {
        self.inbox = inbox
        output = runtime.output
        fd = runtime.input
        finished = fd < 0
    }

    /// The next line without its newline; nil at the end of input or on SIGINT/SIGTERM.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if finished {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            inbox.poll()
            if inbox.stopRequested { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                finished = true
            } else if n == 0 {
                finished = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }

    /// Asks a yes/no question; an empty answer takes the default. Asks again on anything else.
    func ask(_ question: String, defaultYes: Bool) -> Answer {
        for _ in 0..<5 {
            output.write(question + (defaultYes ? " [Y/n] " : " [y/N] "))
            guard let line = readLine() else { output.write("\n"); return .interrupted }
            switch line.promptTrimmed.lowercased() {
            case "": return defaultYes ? .yes : .no
            case "y", "yes", "j", "ja", "是", "好": return .yes
            case "n", "no", "nein", "否", "不": return .no
            default: output.write("Please answer y or n.\n")
            }
        }
        return defaultYes ? .yes : .no
    }

    /// Waits for Enter (any line). False at the end of input or on a stop signal.
    func waitForEnter(_ prompt: String) -> Bool {
        output.write(prompt)
        return readLine() != nil
    }

    /// Drops keys typed before the question (e.g. during the live screen) on a terminal; answers
    /// read ahead from a file or pipe are kept.
    func discardPendingTerminalInput() {
        if fd >= 0, isatty(fd) == 1 {
            buffer.removeAll()
            tcflush(fd, TCIFLUSH)
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var promptTrimmed: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
