/// Formats `--help` text for a command.
///
/// ```swift
/// print(helpText(for: spec))
/// ```
public func helpText(for spec: CommandSpec, program: String = "lodestone") -> String {
    var lines: [String] = []
    lines.append("\(program) \(spec.name): \(spec.abstract)")
    lines.append("")
    let usage = spec.usage.isEmpty ? "[options]" : spec.usage
    lines.append("usage: \(program) \(spec.name) \(usage)")
    if !spec.options.isEmpty {
        lines.append("")
        lines.append("options:")
        var entries: [(String, String)] = spec.options.map { o in
            var left = "  "
            if let s = o.short { left += "-\(s), " }
            left += "--\(o.name)"
            if let v = o.valueName { left += " \(v)" }
            return (left, o.summary)
        }
        entries.append(("  -h, --help", "show this help"))
        let width = min(30, (entries.map(\.0.count).max() ?? 0) + 2)
        for (left, help) in entries {
            if left.count + 1 > width {
                lines.append(left)
                lines.append(String(repeating: " ", count: width) + help)
            } else {
                lines.append(left + String(repeating: " ", count: width - left.count) + help)
            }
        }
    }
    if !spec.discussion.isEmpty {
        lines.append("")
        lines.append(spec.discussion)
    }
    return lines.joined(separator: "\n") + "\n"
}
