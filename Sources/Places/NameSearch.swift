import Platform

/// A place found by name, with how well the name matched.
public struct NamedPlace: Sendable, Equatable {
    public enum Match: Int, Sendable, Comparable {
        case exact = 0, prefix, wordPrefix
        public static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    public var place: Place
    public var match: Match
    /// The user's place (its radius) when it is one.
    public var userPlace: UserPlace?
    /// The alternate name that matched ("Peking", "北京") when it is not the place's own name or
    /// its ASCII form; nil otherwise.
    public var matchedName: String?
}

/// Forward lookup: places by any of their names, case- and accent-insensitive ("zurich" finds
/// Zürich, "Peking" and "北京" find Beijing).
///
/// ```swift
/// let hits = NameSearch(userPlaces: []).find("hoorn", count: 3)
/// hits[0].place.country   // "NL"
/// NameSearch().find("北京", count: 1)[0].place.name   // "Beijing" (matchedName "北京")
/// ```
public struct NameSearch: Sendable {
    public var gazetteer: Gazetteer
    public var userPlaces: [UserPlace]

    public init(gazetteer: Gazetteer = .builtIn, userPlaces: [UserPlace] = []) {
        self.gazetteer = gazetteer
        self.userPlaces = userPlaces
    }

    /// Up to `count` places one of whose names is the query, starts with it, or has a word
    /// starting with it: ranked by that, then user places first, then by population (the bigger
    /// place first).
    public func find(_ query: String, count: Int) -> [NamedPlace] {
        let key = foldName(query)
        guard !key.isEmpty, count > 0 else { return [] }
        var found: [(match: NamedPlace.Match, user: Bool, population: Int, index: Int, name: Int)] = []
        for (i, user) in userPlaces.enumerated() {
            if let match = Self.match(Array(foldName(user.name).utf8), Array(key.utf8)) { found.append((match, true, 0, i, 0)) }
        }
        let keyBytes = Array(key.utf8)
        var folded: [UInt8] = []
        folded.reserveCapacity(64)
        for i in 0..<gazetteer.count {
            var best: (match: NamedPlace.Match, name: Int)?
            var n = 0
            gazetteer.forEachName(at: i) { bytes in
                defer { n += 1 }
                guard Self.fold(bytes, into: &folded),
                      let m = Self.match(folded, keyBytes) else { return true }
                if best == nil || m < best!.match { best = (m, n) }
                return m != .exact
            }
            if let best { found.append((best.match, false, gazetteer.population(at: i), i, best.name)) }
        }
        found.sort { a, b in
            if a.match != b.match { return a.match < b.match }
            if a.user != b.user { return a.user }
            if a.population != b.population { return a.population > b.population }
            return a.index < b.index
        }
        return found.prefix(count).map { hit in
            if hit.user {
                let u = userPlaces[hit.index]
                return NamedPlace(place: Place(name: u.name, country: "", latitude: u.latitude, longitude: u.longitude),
                                  match: hit.match, userPlace: u)
            }
            let place = gazetteer.place(at: hit.index)
            return NamedPlace(place: place, match: hit.match, userPlace: nil,
                              matchedName: alternateName(hit.name, of: hit.index, place: place))
        }
    }

    /// Name `n` of place `index` (in `forEachName`'s order) when it is not the place's own name
    /// or its ASCII form.
    private func alternateName(_ n: Int, of index: Int, place: Place) -> String? {
        var k = 0
        var name: String?
        gazetteer.forEachName(at: index) { bytes in
            if k == n { name = String(decoding: bytes, as: UTF8.self) }
            k += 1
            return k <= n
        }
        guard let name, name != place.name, name != place.asciiName else { return nil }
        return name
    }

    /// Names longer than this get no suggestion (the edit distance to every place would take long).
    static let longestSuggestedQuery = 64

    /// The place whose name (any of them) is nearest to an unknown one, for "did you mean": the
    /// fewest edits, then a user's place, then the bigger place ("Pekinn" → Beijing, whose
    /// alternate name is Peking, rather than Pekin, Illinois). Its own name is returned.
    public func suggestion(for query: String) -> String? {
        guard query.count <= Self.longestSuggestedQuery else { return nil }
        let key = Array(foldName(query).utf8)
        guard !key.isEmpty else { return nil }
        let limit = max(2, key.count / 3)
        var best: (distance: Int, user: Bool, population: Int, name: String)?
        func better(_ d: Int, _ user: Bool, _ population: Int) -> Bool {
            guard let b = best else { return true }
            if d != b.distance { return d < b.distance }
            if user != b.user { return user }
            return population > b.population
        }
        var scratch = EditScratch()
        for user in userPlaces {
            let d = scratch.distance(Array(foldName(user.name).utf8), key, limit: limit)
            if d <= limit, better(d, true, 0) { best = (d, true, 0, user.name) }
        }
        var folded: [UInt8] = []
        let keyHistogram = ByteHistogram(key)
        for i in 0..<gazetteer.count {
            var nearest = Int.max
            gazetteer.forEachName(at: i) { bytes in
                // Folding never lengthens a name: one too short as written is too short folded.
                let reach = min(limit, nearest)
                if bytes.count + reach < key.count { return true }
                _ = Self.fold(bytes, into: &folded)
                if abs(folded.count - key.count) <= reach, keyHistogram.lowerBound(to: folded) <= reach {
                    nearest = min(nearest, scratch.distance(folded, key, limit: reach))
                }
                return nearest > 0
            }
            if nearest <= limit {
                let population = gazetteer.population(at: i)
                if better(nearest, false, population) { best = (nearest, false, population, gazetteer.name(at: i)) }
            }
        }
        return best?.name
    }

    static func match(_ name: [UInt8], _ key: [UInt8]) -> NamedPlace.Match? {
        guard name.count >= key.count else { return nil }
        if name.count == key.count { return name == key ? .exact : nil }
        if name.starts(with: key) { return .prefix }
        var i = 0
        while i + key.count < name.count {
            if name[i] == 0x20, name[(i + 1)...].starts(with: key) { return .wordPrefix }
            i += 1
        }
        return nil
    }

    /// A gazetteer name folded as `foldName` folds it, byte by byte (no strings made).
    static func fold(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        if foldFast(bytes, into: &out) { return true }
        out = Array(foldName(String(decoding: bytes, as: UTF8.self)).utf8)
        return true
    }

    /// The fast path of `fold`: ASCII, Latin letters with accents, and Han characters; false
    /// (and `foldName` is used) for anything else.
    static func foldFast(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        var pendingSpace = false
        var i = 0
        let n = bytes.count
        @inline(__always) func letter() {
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
        }
        while i < n {
            var b = bytes[i]
            if b < 0x80 {
                if b >= 0x41 && b <= 0x5A { b += 0x20 }
                if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                    letter()
                    out.append(b)
                } else {
                    pendingSpace = true
                }
                i += 1
            } else if b >= 0xC3 && b <= 0xC9, i + 1 < n {
                // U+00C0…U+027F: Latin letters with diacritics.
                let scalar = UInt32(b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                guard let plain = LatinFold.bytes[scalar] else { return false }
                letter()
                out.append(contentsOf: plain)
                i += 2
            } else if b >= 0xE4 && b <= 0xE9, i + 2 < n {
                // U+4E00…U+9FFF: CJK ideographs, which fold to themselves.
                letter()
                out.append(b)
                out.append(bytes[i + 1])
                out.append(bytes[i + 2])
                i += 3
            } else {
                return false
            }
        }
        return true
    }
}

/// How many of each byte (in 32 buckets) a name holds: the edit distance between two names is at
/// least the larger of the surplus and the deficit of one's counts against the other's, a cheap
/// test before the full distance.
struct ByteHistogram {
    var counts = [Int](repeating: 0, count: 32)

    init(_ bytes: [UInt8]) {
        for b in bytes { counts[Int(b & 31)] += 1 }
    }

    func lowerBound(to other: [UInt8]) -> Int {
        var diff = counts
        for b in other { diff[Int(b & 31)] -= 1 }
        var surplus = 0, deficit = 0
        for d in diff { if d > 0 { surplus += d } else { deficit -= d } }
        return max(surplus, deficit)
    }
}

/// Two rows of a bounded Levenshtein distance, reused across a search.
struct EditScratch {
    var previous: [Int] = []
    var current: [Int] = []

    /// The edit distance between `a` and `b` when at most `limit`, else some value above it.
    mutating func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: 0...b.count)
        current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                current[j] = v
                rowMinimum = min(rowMinimum, v)
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
