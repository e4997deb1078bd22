import Geodesy
import Platform

/// A place of the user's own (`places.csv`): a name, a position and a radius within which the
/// user is "at" it.
public struct UserPlace: Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// Metres, > 0.
    public var radius: Double

    /// The radius when the file gives none, metres.
    public static let defaultRadius = 100.0
    /// The largest radius, metres: half the way round the equator, rounded up (it holds every point
    /// on Earth; a larger one says nothing more).
    public static let maximumRadius = 20_040_000.0

    public init(name: String, latitude: Double, longitude: Double, radius: Double = UserPlace.defaultRadius) throws(PlaceError) {
        let clean = sanitize(name).trimmedSpaces
        guard !clean.isEmpty else { throw .emptyName }
        guard latitude.isFinite, abs(latitude) <= 90 else { throw .latitude(latitude) }
        guard longitude.isFinite, abs(longitude) <= 180 else { throw .longitude(longitude) }
        guard radius.isFinite, radius > 0, radius <= UserPlace.maximumRadius else { throw .radius(radius) }
        self.name = clean
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}

/// A place, position or radius that cannot be used, with what to give instead.
public enum PlaceError: Error, Equatable, Sendable {
    case emptyName
    case latitude(Double)
    case longitude(Double)
    case radius(Double)
    case line(number: Int, String)

    public var message: String {
        switch self {
        case .emptyName: return "a place needs a name"
        case .latitude(let v): return "latitude \(plain(v)) is outside -90…90 degrees"
        case .longitude(let v): return "longitude \(plain(v)) is outside -180…180 degrees"
        case .radius(let v): return "radius \(plain(v)) must be a number of metres above 0 and at most \(plain(UserPlace.maximumRadius))"
        case .line(let n, let why): return "line \(n): \(why) (expected name,lat,lon[,radius_m])"
        }
    }
}

/// The user's places file: CSV lines `name,lat,lon[,radius_m]`, an optional header, `#` comments.
/// Names holding commas or quotes are quoted as in RFC 4180.
///
/// ```swift
/// let places = try PlacesFile.parse("name,lat,lon,radius_m\nHome,52.37,4.89,50\n")
/// PlacesFile.serialize(places)   // "name,lat,lon,radius_m\nHome,52.37,4.89,50\n"
/// ```
public enum PlacesFile {
    public static let header = "name,lat,lon,radius_m"

    /// The places of a file, in its order. A name given twice (names match as `foldName` folds
    /// them, ignoring case and accents) is refused, naming both lines: every command looks places
    /// up by name, so the second would silently never be used.
    public static func parse(_ text: String) throws(PlaceError) -> [UserPlace] {
        var places: [UserPlace] = []
        var firstLine: [String: Int] = [:]   // folded name → the line that gave it
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.trimmingCharacters(" \t").isEmpty || line.hasPrefix("#") { continue }
            guard let fields = csvFields(line) else { throw .line(number: lineNumber, "an unterminated quote") }
            if places.isEmpty, fields.count >= 3,
               fields[1].trimmingCharacters(" \t").lowercased() == "lat" { continue }
            guard fields.count == 3 || fields.count == 4 else {
                throw .line(number: lineNumber, "\(fields.count) fields")
            }
            func value(_ text: String, _ what: String) throws(PlaceError) -> Double {
                guard let v = Double(text.trimmingCharacters(" \t")), v.isFinite else {
                    throw .line(number: lineNumber, "the \(what) is not a number")
                }
                return v
            }
            let lat = try value(fields[1], "latitude"), lon = try value(fields[2], "longitude")
            let radius = fields.count == 4 && !fields[3].trimmingCharacters(" \t").isEmpty
                ? try value(fields[3], "radius") : UserPlace.defaultRadius
            let place: UserPlace
            do {
                place = try UserPlace(name: fields[0], latitude: lat, longitude: lon, radius: radius)
            } catch {
                throw .line(number: lineNumber, error.message)
            }
            let key = foldName(place.name)
            if let earlier = firstLine[key] {
                throw .line(number: lineNumber, "the name '\(excerpt(place.name, limit: 40))' is already used on line \(earlier) "
                    + "(names match ignoring case and accents); rename or remove one")
            }
            firstLine[key] = lineNumber
            places.append(place)
        }
        return places
    }

    public static func serialize(_ places: [UserPlace]) -> String {
        var text = header + "\n"
        for p in places {
            text += csvField(p.name) + "," + plain(p.latitude) + "," + plain(p.longitude) + "," + plain(p.radius) + "\n"
        }
        return text
    }

    /// A CSV field, quoted when it holds a comma, quote, or leading/trailing space or `#`.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" }) || text.hasPrefix("#") else { return text }
        var quoted = "\""
        for c in text { quoted += c == "\"" ? "\"\"" : String(c) }
        return quoted + "\""
    }

    /// The fields of one CSV line; nil when a quote is not closed.
    static func csvFields(_ line: Substring) -> [String]? {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var chars = line.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? chars.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = chars.next() {
                        if next == "\"" { current.append("\"") } else { quoted = false; pending = next }
                    } else { quoted = false }
                } else {
                    current.append(c)
                }
            } else if c == "\"" && current.trimmingCharacters(" \t").isEmpty {
                current = ""
                quoted = true
            } else if c == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if quoted { return nil }
        fields.append(current)
        return fields
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `set`.
    func trimmingCharacters(_ set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }

    var trimmedSpaces: String { trimmingCharacters(" \t") }
}
