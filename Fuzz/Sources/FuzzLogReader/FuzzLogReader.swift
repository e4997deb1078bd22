import FuzzSupport
import Glibc
import HeadingLog
import Platform

/// Any bytes as a file: the chunked line reader hands out exactly the file's lines (a long one
/// reported once as too long, with its first bytes), and `analyze` gives a summary without NaN or an error with a message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let path = "/tmp/lodestone-fuzz-\(getpid()).csv"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    require(fd >= 0, "cannot write \(path)")
    if !bytes.isEmpty { require(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == size, "short write") }
    close(fd)
    defer { unlink(path) }

    // The reader's smallest buffer (4096 bytes) against a plain split of the bytes.
    let capacity = 4096
    var expected: [([UInt8], LineEnding)] = []
    var start = 0
    while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 10 { end += 1 }
        var line = Array(bytes[start..<end])
        if line.count >= capacity {
            expected.append((Array(line.prefix(capacity)), .tooLong))
        } else if end == bytes.count {
            expected.append((line, .endOfFile))
        } else {
            if line.last == 13 { line.removeLast() }
            expected.append((line, .newline))
        }
        start = end + 1
    }
    // A UTF-8 byte-order mark before the first line is dropped (when that line is not too long).
    if let first = expected.first, first.1 != .tooLong, first.0.starts(with: [0xEF, 0xBB, 0xBF]) {
        expected[0].0.removeFirst(3)
    }
    var seen: [([UInt8], LineEnding)] = []
    do {
        var lines = try ChunkedLines(path: path, maximumLineLength: 0)
        try lines.forEach { line, ending in
            seen.append((Array(line), ending))
            return true
        }
    } catch {
        require(false, "the line reader failed: \(error.message)")
    }
    require(seen.count == expected.count, "\(seen.count) lines read, \(expected.count) in the file")
    for (a, b) in zip(seen, expected) {
        require(a.0 == b.0 && a.1 == b.1, "a line read differs from the file's")
    }

    // The analyser over the same file.
    do {
        var malformed = 0
        // The plot (downsampling and SVG) is slow: drawn for a quarter of the inputs.
        let plot = size % 4 == 0
        let analysis = try LogAnalyzer.analyze(path: path, options: .init(plot: plot)) { _ in malformed += 1 }
        let text = analysis.summary.text
        require(!hasNonFinite(text), "a summary with NaN or inf:\n\(text)")
        require(analysis.summary.malformedRows == malformed, "malformed rows miscounted")
        if let plot = analysis.plot {
            let svg = SVGPlot.render(plot)
            require(!hasNonFinite(svg), "a plot with NaN or inf")
        }
    } catch {
        require(!error.message.isEmpty, "an error without a message")
    }
    return 0
}

/// True when a word of the text is "nan" or "inf", as a non-finite number prints.
func hasNonFinite(_ text: String) -> Bool {
    text.lowercased().split { !$0.isLetter }.contains { $0 == "nan" || $0 == "inf" || $0 == "infinity" }
}
