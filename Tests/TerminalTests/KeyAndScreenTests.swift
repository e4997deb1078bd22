import Testing
@testable import Terminal

@Suite("keys and screen")
struct KeyAndScreenTests {
    @Test("each key maps to its action, upper case too")
    func keys() {
        let table: [(String, KeyAction)] = [
            ("q", .quit), ("Q", .quit), ("t", .toggleReference), ("T", .toggleReference), ("u", .cycleUnits),
            ("l", .toggleLanguage), ("c", .calibrate), ("r", .resetTrack), ("R", .resetTrack), ("?", .toggleHelp),
            ("h", .toggleHelp),
        ]
        for (key, action) in table {
            #expect(keyActions(for: Array(key.utf8)) == [action], "\(key)")
        }
        #expect(keyActions(for: [0x03]) == [.quit])   // Ctrl-C when signals are off
        #expect(keyActions(for: [0x04]) == [.quit])   // Ctrl-D
        #expect(keyActions(for: Array("tux".utf8)) == [.toggleReference, .cycleUnits])
        #expect(keyActions(for: Array("x 1\n".utf8)).isEmpty)
        // Every action has a key.
        let reachable = Set((0...255).compactMap { keyAction(for: UInt8($0)) }.map { "\($0)" } + ["\(KeyAction.closeHelp)"])
        #expect(reachable == Set(KeyAction.allCases.map { "\($0)" }))
    }

    @Test("escape sequences are skipped; a lone Esc closes the help")
    func escapes() {
        #expect(keyActions(for: [0x1B, 0x5B, 0x41]).isEmpty)                          // up arrow
        #expect(keyActions(for: [0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x71]) == [.quit])     // F5 then q
        #expect(keyActions(for: [0x1B, 0x4F, 0x50, 0x74]) == [.toggleReference])      // F1 then t
        #expect(keyActions(for: [0x1B]) == [.closeHelp])
        #expect(keyActions(for: [0x1B, 0x1B]) == [.closeHelp, .closeHelp])
        #expect(keyActions(for: [0x1B, 0x71]).isEmpty)                                // Alt-q is not q
        #expect(keyActions(for: [0x1B, 0x5B]).isEmpty)                                // cut-off sequence
        #expect(keyActions(for: Array("北q".utf8)) == [.quit])                         // UTF-8 input ignored
    }

    @Test("a frame is one string: home, lines with erase-to-end, erase below")
    func frame() {
        let frame = encodeFrame(["ab", "cdef"], columns: 4, rows: 3)
        #expect(frame == "\u{1B}[Hab\u{1B}[K\r\ncdef\r\n\u{1B}[J")
        // Full screen: no erase-below, and full-width lines get no erase-to-end.
        #expect(encodeFrame(["abcd", "ef"], columns: 4, rows: 2) == "\u{1B}[Habcd\r\nef\u{1B}[K")
        // Wide characters count as two cells.
        #expect(encodeFrame(["北东"], columns: 4, rows: 1) == "\u{1B}[H北东")
        // Extra lines are dropped.
        #expect(encodeFrame(["a", "b", "c"], columns: 1, rows: 2) == "\u{1B}[Ha\r\nb")
        #expect(encodeFrame([], columns: 10, rows: 2) == "\u{1B}[H\u{1B}[J")
    }

    @Test("enter and leave are idempotent and balanced; one write per frame")
    func screenOnTerminal() {
        var writes: [String] = []
        let screen = Screen(isTerminal: true) { writes.append($0); return true }
        screen.enter()
        screen.enter()
        #expect(writes == [Screen.enterSequence])
        #expect(screen.draw(["x"], columns: 1, rows: 1))
        #expect(writes.count == 2 && writes[1] == "\u{1B}[Hx")
        screen.leave()
        screen.leave()
        #expect(writes.count == 3 && writes[2] == Screen.leaveSequence)
        #expect(Screen.enterSequence.contains("\u{1B}[?1049h") && Screen.enterSequence.contains("\u{1B}[?25l"))
        #expect(Screen.leaveSequence.contains("\u{1B}[?1049l") && Screen.leaveSequence.contains("\u{1B}[?25h"))
    }

    @Test("released while active, the screen restores itself")
    func restoreOnRelease() {
        final class Log: @unchecked Sendable { var writes: [String] = [] }
        let log = Log()
        do {
            let screen = Screen(isTerminal: true) { log.writes.append($0); return true }
            screen.enter()
        }
        #expect(log.writes == [Screen.enterSequence, Screen.leaveSequence])
    }

    @Test("not a terminal: no escapes at all, plain lines")
    func screenNotTerminal() {
        var writes: [String] = []
        let screen = Screen(isTerminal: false) { writes.append($0); return true }
        screen.enter()
        screen.draw(["123.4°M SE"], columns: 80, rows: 24)
        screen.writeLine("second")
        screen.leave()
        #expect(writes == ["123.4°M SE\n", "second\n"])
        #expect(!writes.joined().contains("\u{1B}"))
    }

    @Test("a failed write is reported so the loop can stop")
    func readerGone() {
        let screen = Screen(isTerminal: true) { _ in false }
        #expect(!screen.draw(["x"], columns: 1, rows: 1))
    }
}
