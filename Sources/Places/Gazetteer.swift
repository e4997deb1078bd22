import CGazetteer

/// One place of the gazetteer: a GeoNames populated place, with what a placemark says of it.
public struct Place: Sendable, Equatable {
    /// The place's name as GeoNames writes it (UTF-8, may carry accents).
    public var name: String
    /// The name in ASCII letters ("Zurich" for "Zürich").
    public var asciiName: String
    /// ISO 3166-1 alpha-2 country code ("NL").
    public var country: String
    /// The country's name ("Netherlands"); empty when unknown.
    public var countryName: String
    /// The first-level administrative region ("North Holland"); empty when unknown.
    public var region: String
    /// The IANA time zone ("Europe/Amsterdam"); empty when unknown.
    public var timeZone: String
    /// The Chinese name ("北京"), when GeoNames has one (see `Gazetteer`'s notes on how it is chosen).
    public var chineseName: String?
    public var population: Int
    /// Degrees, 1e-5 resolution.
    public var latitude: Double
    public var longitude: Double

    public init(name: String, asciiName: String? = nil, country: String, countryName: String = "", region: String = "",
                timeZone: String = "", chineseName: String? = nil, population: Int = 0,
                latitude: Double, longitude: Double) {
        self.name = name
        self.asciiName = asciiName ?? name
        self.country = country
        self.countryName = countryName
        self.region = region
        self.timeZone = timeZone
        self.chineseName = chineseName
        self.population = population
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The name to show in a language: in Chinese, the Chinese name when there is one, else the
    /// place's own name.
    public func name(zh: Bool) -> String { zh ? (chineseName ?? name) : name }
}

/// The offline gazetteer: every GeoNames place of at least 500 people in a compact read-only table,
/// searched through an implicit k-d tree over unit vectors (no scan, no start-up decoding: a query
/// touches only the records it visits, and a place's text is decoded only when it is returned).
///
/// The layout (`Tools/gazetteer/make_gazetteer.py`): fixed 12-byte records (latitude, longitude,
/// entry offset) in k-d order; variable entries (population, region, zone, names as varints and
/// length-prefixed UTF-8); string tables for regions, zones and countries.
///
/// ```swift
/// let gazetteer = Gazetteer.builtIn
/// let hits = gazetteer.nearest(latitude: 52.52, longitude: 5.07, count: 3)   // Edam first
/// gazetteer.place(at: hits[0].index).name                                    // "Edam"
/// ```
public struct Gazetteer: @unchecked Sendable {
    // @unchecked: the bytes are immutable for the life of the process (static data compiled in, or
    // a buffer the creator keeps alive and never writes).
    let base: UnsafeRawPointer
    let size: Int
    /// The number of places.
    public let count: Int
    let recordsOffset: Int
    let entriesOffset: Int
    let entriesSize: Int
    let areas: StringTable
    let zones: StringTable
    let countries: StringTable
    /// The boxes of the places in the tree's top cells (`CellBounds`); nil when none were given
    /// or they do not match (searches stay exact, only slower far from every place).
    let cellBounds: CellBounds?

    static let recordSize = 12
    static let headerSize = 32

    /// The gazetteer compiled into the program.
    public static let builtIn: Gazetteer = {
        let bytes = UnsafeRawPointer(lodestone_gazetteer_bytes()!)
        return Gazetteer(bytes: bytes, size: Int(lodestone_gazetteer_size()),
                         cellBounds: lodestone_gazetteer_bounds_bytes().map(UnsafeRawPointer.init),
                         cellBoundsSize: Int(lodestone_gazetteer_bounds_size()))
            ?? Gazetteer(emptyAt: bytes)
    }()

    /// A gazetteer over bytes in the layout `Tools/gazetteer/make_gazetteer.py` writes; nil when
    /// the header or the sizes do not agree. The bytes must outlive the value and never change.
    /// `cellBounds` are the boxes of the tree's top cells in the layout `Tools/gazetteer/make_bounds.py`
    /// writes from those bytes; they are left unused when their header or size does not match.
    public init?(bytes: UnsafeRawPointer, size: Int, cellBounds: UnsafeRawPointer? = nil, cellBoundsSize: Int = 0) {
        guard size >= Self.headerSize, bytes.load(as: UInt8.self) == 0x4C, (bytes + 1).load(as: UInt8.self) == 0x47,
              (bytes + 2).load(as: UInt8.self) == 0x5A, (bytes + 3).load(as: UInt8.self) == 0x32 else { return nil }
        func u32(_ offset: Int) -> Int { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        let count = u32(4), records = u32(8), entries = u32(12), entriesSize = u32(16)
        guard records >= Self.headerSize, records + count * Self.recordSize <= entries, entries + entriesSize <= size,
              let areas = StringTable(bytes, at: u32(20), size: size),
              let zones = StringTable(bytes, at: u32(24), size: size),
              let countries = StringTable(bytes, at: u32(28), size: size) else { return nil }
        self.base = bytes
        self.size = size
        self.count = count
        self.recordsOffset = records
        self.entriesOffset = entries
        self.entriesSize = entriesSize
        self.areas = areas
        self.zones = zones
        self.countries = countries
        self.cellBounds = cellBounds.flatMap { CellBounds(bytes: $0, size: cellBoundsSize, placeCount: count) }
    }

    private init(emptyAt bytes: UnsafeRawPointer) {
        base = bytes
        size = 0
        count = 0
        recordsOffset = 0
        entriesOffset = 0
        entriesSize = 0
        areas = StringTable()
        zones = StringTable()
        countries = StringTable()
        cellBounds = nil
    }

    /// True when the tree's top cells carry the boxes of their places (the built-in gazetteer does).
    public var hasCellBounds: Bool { cellBounds != nil }

    @inline(__always) func int32(_ offset: Int) -> Int32 {
        Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    /// Latitude and longitude of place `index`, in 1e-5 degrees.
    @inline(__always) func fixedPosition(_ index: Int) -> (Int32, Int32) {
        let r = recordsOffset + index * Self.recordSize
        return (int32(r), int32(r + 4))
    }

    /// Latitude and longitude of place `index`, degrees.
    public func position(at index: Int) -> (latitude: Double, longitude: Double) {
        let (lat, lon) = fixedPosition(index)
        return (Double(lat) / 1e5, Double(lon) / 1e5)
    }

    /// A cursor at the start of place `index`'s entry.
    func entry(_ index: Int) -> EntryReader {
        let offset = Int(UInt32(bitPattern: int32(recordsOffset + index * Self.recordSize + 8)))
        return EntryReader(base: base + entriesOffset, position: offset, end: entriesSize)
    }

    /// The population of place `index`.
    public func population(at index: Int) -> Int {
        var e = entry(index)
        return e.varint()
    }

    /// The ASCII name of place `index` (the name itself when it is ASCII already).
    public func asciiName(at index: Int) -> String {
        var e = entry(index)
        e.skipVarints(3)
        let name = e.bytes(), ascii = e.bytes()
        return String(decoding: ascii.isEmpty ? name : ascii, as: UTF8.self)
    }

    /// The name of place `index` as GeoNames writes it.
    public func name(at index: Int) -> String {
        var e = entry(index)
        e.skipVarints(3)
        return String(decoding: e.bytes(), as: UTF8.self)
    }

    /// Place `index`, decoded.
    public func place(at index: Int) -> Place {
        var e = entry(index)
        let population = e.varint(), area = e.varint(), zone = e.varint()
        let name = String(decoding: e.bytes(), as: UTF8.self)
        let ascii = e.bytes(), chinese = e.bytes()
        let (country, region) = split(areas[area])
        let p = position(at: index)
        return Place(name: name, asciiName: ascii.isEmpty ? name : String(decoding: ascii, as: UTF8.self),
                     country: country, countryName: countryName(country), region: region,
                     timeZone: zones[zone], chineseName: chinese.isEmpty ? nil : String(decoding: chinese, as: UTF8.self),
                     population: population, latitude: p.latitude, longitude: p.longitude)
    }

    /// The names of place `index` a search may match, in order: the name, the ASCII name, the
    /// Chinese name, then the alternate names (each given once; empty ones left out). `body`
    /// returns false to stop.
    func forEachName(at index: Int, _ body: (UnsafeRawBufferPointer) -> Bool) {
        var e = entry(index)
        e.skipVarints(3)
        for _ in 0..<3 {
            let b = e.bytes()
            if !b.isEmpty, !body(b) { return }
        }
        let n = e.varint()
        for _ in 0..<n {
            let b = e.bytes()
            if b.isEmpty { return }
            if !body(b) { return }
        }
    }

    /// The English name of a country ("NL" → "Netherlands"); empty when unknown.
    public func countryName(_ code: String) -> String {
        var lo = 0, hi = countries.count
        let key = Array(code.utf8)
        while lo < hi {
            let mid = (lo + hi) / 2
            let entry = countries.bytes(mid)
            let entryCode = Array(entry.prefix { $0 != 0x1F })
            if entryCode == key { return String(decoding: entry.dropFirst(entryCode.count + 1), as: UTF8.self) }
            if entryCode.lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
        }
        return ""
    }

    private func split(_ text: String) -> (String, String) {
        guard let bar = text.firstIndex(of: "\u{1F}") else { return (text, "") }
        return (String(text[..<bar]), String(text[text.index(after: bar)...]))
    }
}

/// One of the gazetteer's string tables: u32 n, n + 1 u32 offsets from the table's start, strings.
struct StringTable {
    let base: UnsafeRawPointer?
    let count: Int

    init() {
        base = nil
        count = 0
    }

    init?(_ bytes: UnsafeRawPointer, at offset: Int, size: Int) {
        guard offset >= 0, offset + 4 <= size else { return nil }
        let n = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        guard offset + 4 + 4 * (n + 1) <= size else { return nil }
        var previous = 4 + 4 * (n + 1)
        for i in 0...n {
            let o = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 + 4 * i, as: UInt32.self)))
            guard o >= previous, offset + o <= size else { return nil }
            previous = o
        }
        base = bytes + offset
        count = n
    }

    func bytes(_ i: Int) -> UnsafeRawBufferPointer {
        guard let base, i >= 0, i < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 4 + 4 * i, as: UInt32.self)))
        let end = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8 + 4 * i, as: UInt32.self)))
        return UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    subscript(i: Int) -> String { String(decoding: bytes(i), as: UTF8.self) }
}

/// Reads a gazetteer entry: LEB128 varints and length-prefixed strings, never past `end` (a
/// damaged entry reads as zeros and empty strings).
struct EntryReader {
    let base: UnsafeRawPointer
    var position: Int
    let end: Int

    mutating func varint() -> Int {
        var value = 0, shift = 0
        while position < end, shift < 63 {
            let b = base.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            value |= Int(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
        return value
    }

    mutating func skipVarints(_ n: Int) {
        for _ in 0..<n {
            while position < end, base.load(fromByteOffset: position, as: UInt8.self) & 0x80 != 0 { position += 1 }
            position += 1
        }
    }

    mutating func bytes() -> UnsafeRawBufferPointer {
        let n = varint()
        guard n > 0, position < end else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let length = min(n, end - position)
        defer { position += length }
        return UnsafeRawBufferPointer(start: base + position, count: length)
    }
}
