/// The candidate nearest to `word` by edit distance, for "did you mean" hints: nil when none is
/// within `max(2, word.count / 3)` edits. On a tie the earlier candidate wins.
///
/// ```swift
/// closestMatch(to: "wach", in: ["watch", "track"])     // "watch"
/// closestMatch(to: "zzzzzz", in: ["watch", "track"])   // nil
/// ```
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let w = Array(word)
    let limit = max(2, w.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(w, Array(candidate))
        if d <= limit, d < best?.distance ?? .max { best = (candidate, d) }
    }
    return best?.candidate
}

/// The Levenshtein distance between two strings: the fewest single-character insertions,
/// deletions and substitutions that turn one into the other.
///
/// ```swift
/// editDistance("kitten", "sitting")   // 3
/// ```
public func editDistance(_ a: String, _ b: String) -> Int { editDistance(Array(a), Array(b)) }

private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
