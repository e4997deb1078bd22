import Platform

/// When a log moves on to a new file, and what the files are called. Each file has its own header.
///
/// - `.size(bytes:)`: `heading.csv`, then `heading.1.csv`, `heading.2.csv`, … A new run appends to the
///   highest-numbered file that exists (until it is full).
/// - `.daily`: one file per UTC day of the rows' time, `heading-20250601.csv`.
///
/// ```swift
/// LogRotation.numberedPath("/var/lib/lodestone/heading.csv", 2)    // ".../heading.2.csv"
/// LogRotation.datedPath("heading.csv", day: 20240)                 // "heading-20250601.csv"
/// ```
public enum LogRotation: Sendable, Equatable {
    case none
    /// Start a new file before one would grow beyond this many bytes.
    case size(bytes: Int)
    /// Start a new file at each UTC midnight.
    case daily

    /// The name and extension of a path ("heading", ".csv"); the extension is empty when there is none.
    static func split(_ path: String) -> (String, String) {
        let slash = path.lastIndex(of: "/")
        if let dot = path.lastIndex(of: "."), dot > (slash ?? path.startIndex), dot != path.startIndex,
           slash.map({ path.index(after: $0) != dot }) ?? true {
            return (String(path[..<dot]), String(path[dot...]))
        }
        return (path, "")
    }

    /// The `index`-th file of a size-rotated log; index 0 is the path itself.
    public static func numberedPath(_ path: String, _ index: Int) -> String {
        guard index > 0 else { return path }
        let (stem, ext) = split(path)
        return stem + "." + String(index) + ext
    }

    /// The file of a daily-rotated log for a day (days since 1970-01-01, UTC).
    public static func datedPath(_ path: String, day: Int64) -> String {
        let (stem, ext) = split(path)
        let text = TimeText.string(milliseconds: day * 86_400_000)   // "YYYY-MM-DDT…"
        let date = text.prefix(10).filter { $0 != "-" }
        return stem + "-" + date + ext
    }

    /// The files of a rotated log that exist beside `path`, oldest first, each with its number (the
    /// path itself is 0) or its day (YYYYMMDD). Only names this rotation makes are listed; other
    /// files in the folder are never counted.
    public static func existingFiles(_ path: String, rotation: LogRotation) -> [(key: Int, path: String)] {
        let folder = Files.parentFolder(of: path)
        let slash = path.lastIndex(of: "/")
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let (stem, ext) = split(base)
        guard let names = Files.list(folder) else { return [] }
        var keyed: [(key: Int, name: String)] = []
        for name in names where name.hasPrefix(stem) && name.hasSuffix(ext) && name.count > stem.count + ext.count {
            let middle = name.dropFirst(stem.count).dropLast(ext.count)
            switch rotation {
            case .none:
                continue
            case .size:
                guard middle.first == ".", let n = Int(middle.dropFirst()), n > 0,
                      String(n) == middle.dropFirst() else { continue }
                keyed.append((n, name))
            case .daily:
                let digits = middle.dropFirst()
                guard middle.first == "-", digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let day = Int(digits) else { continue }
                keyed.append((day, name))
            }
        }
        if case .size = rotation, names.contains(base) { keyed.append((0, base)) }
        let prefix = slash.map { String(path[...$0]) } ?? ""
        return keyed.sorted { $0.key < $1.key }.map { ($0.key, prefix + $0.name) }
    }

    /// A name beside `path` that does not exist yet ("heading-2.csv", "heading-3.csv", …).
    public static func freeName(near path: String) -> String {
        let (stem, ext) = split(path)
        for n in 2..<10_000 {
            let candidate = stem + "-" + String(n) + ext
            if !Files.exists(candidate) { return candidate }
        }
        return stem + "-new" + ext
    }
}
