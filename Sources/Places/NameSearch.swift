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
}

/// Forward lookup: places by name, case- and accent-insensitive ("zurich" finds Zürich).
///
/// ```swift
/// let hits = NameSearch(userPlaces: []).find("hoorn", count: 3)
/// hits[0].place.country   // "NL"
/// ```
public struct NameSearch: Sendable {
    public var gazetteer: Gazetteer
    public var userPlaces: [UserPlace]

    public init(gazetteer: Gazetteer = .builtIn, userPlaces: [UserPlace] = []) {
        self.gazetteer = gazetteer
        self.userPlaces = userPlaces
    }

    /// Up to `count` places whose name is the query, starts with it, or has a word starting with
    /// it: ranked by that, then user places first, then by population.
    public func find(_ query: String, count: Int) -> [NamedPlace] {
        let key = foldName(query)
        guard !key.isEmpty, count > 0 else { return [] }
        var found: [(match: NamedPlace.Match, user: Bool, population: Int, index: Int)] = []
        for (i, user) in userPlaces.enumerated() {
            if let match = Self.match(foldName(user.name), key) { found.append((match, true, 0, i)) }
        }
        let keyBytes = Array(key.utf8)
        var folded: [UInt8] = []
        folded.reserveCapacity(64)
        for i in 0..<gazetteer.count {
            // The ASCII name, folded byte by byte (no strings made): the common, fast path.
            if gazetteer.foldedASCIIName(at: i, into: &folded) {
                if let m = Self.match(folded, keyBytes) { found.append((m, false, gazetteer.population(at: i), i)) }
            } else if let m = Self.match(foldName(gazetteer.asciiName(at: i)), key) {
                found.append((m, false, gazetteer.population(at: i), i))
            }
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
            return NamedPlace(place: gazetteer.place(at: hit.index), match: hit.match, userPlace: nil)
        }
    }

    /// The known name nearest to an unknown one, for "did you mean".
    /// Names longer than this get no suggestion (the edit distance to every place would take long).
    static let longestSuggestedQuery = 64

    public func suggestion(for query: String) -> String? {
        guard query.count <= Self.longestSuggestedQuery else { return nil }
        var names = userPlaces.map(\.name)
        names.reserveCapacity(names.count + gazetteer.count)
        for i in 0..<gazetteer.count { names.append(gazetteer.asciiName(at: i)) }
        let folded = names.map(foldName)
        guard let match = closestMatch(to: foldName(query), in: folded),
              let index = folded.firstIndex(of: match) else { return nil }
        return names[index]
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

    static func match(_ name: String, _ key: String) -> NamedPlace.Match? {
        if name == key { return .exact }
        if name.hasPrefix(key) { return .prefix }
        if name.contains(" " + key) { return .wordPrefix }
        return nil
    }
}
