import CGazetteer

/// One place of the gazetteer: a GeoNames populated place.
public struct Place: Sendable, Equatable {
    /// The place's name as GeoNames writes it (UTF-8, may carry accents).
    public var name: String
    /// The name in ASCII letters ("Zurich" for "Zürich").
    public var asciiName: String
    /// ISO 3166-1 alpha-2 country code ("NL").
    public var country: String
    /// The first-level region ("North Holland"); empty when unknown.
    public var region: String
    public var population: Int
    /// Degrees, 1e-5 resolution.
    public var latitude: Double
    public var longitude: Double

    public init(name: String, asciiName: String? = nil, country: String, region: String = "", population: Int = 0,
                latitude: Double, longitude: Double) {
        self.name = name
        self.asciiName = asciiName ?? name
        self.country = country
        self.region = region
        self.population = population
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The offline gazetteer: GeoNames places in a compact read-only table, searched through an implicit
/// k-d tree over unit vectors (no scan, no start-up decoding: a query touches only the records it
/// visits, and a place's text is decoded only when it is returned).
///
/// ```swift
/// let gazetteer = Gazetteer.builtIn
/// let hits = gazetteer.nearest(latitude: 52.65, longitude: 5.06, count: 3)   // Hoorn first
/// gazetteer.place(at: hits[0].index).name                                    // "Hoorn"
/// ```
public struct Gazetteer: @unchecked Sendable {
    // @unchecked: the bytes are immutable for the life of the process (static data compiled in, or
    // a buffer the creator keeps alive and never writes).
    let base: UnsafeRawPointer
    let size: Int
    /// The number of places.
    public let count: Int
    let recordsOffset: Int
    let textOffset: Int
    let textSize: Int

    static let recordSize = 28

    /// The gazetteer compiled into the program.
    public static let builtIn: Gazetteer = {
        let bytes = UnsafeRawPointer(lodestone_gazetteer_bytes()!)
        return Gazetteer(bytes: bytes, size: Int(lodestone_gazetteer_size()))
            ?? Gazetteer(emptyAt: bytes)
    }()

    /// A gazetteer over bytes in the layout `Tools/gazetteer/make_gazetteer.py` writes; nil when
    /// the header or the sizes do not agree. The bytes must outlive the value and never change.
    public init?(bytes: UnsafeRawPointer, size: Int) {
        guard size >= 20, bytes.load(as: UInt8.self) == 0x4C, (bytes + 1).load(as: UInt8.self) == 0x47,
              (bytes + 2).load(as: UInt8.self) == 0x5A, (bytes + 3).load(as: UInt8.self) == 0x31 else { return nil }
        func u32(_ offset: Int) -> Int { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        let count = u32(4), records = u32(8), text = u32(12), textSize = u32(16)
        guard records >= 20, records + count * Self.recordSize <= text, text + textSize <= size else { return nil }
        self.base = bytes
        self.size = size
        self.count = count
        self.recordsOffset = records
        self.textOffset = text
        self.textSize = textSize
    }

    private init(emptyAt bytes: UnsafeRawPointer) {
        base = bytes
        size = 0
        count = 0
        recordsOffset = 0
        textOffset = 0
        textSize = 0
    }

    @inline(__always) func float(_ offset: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    @inline(__always) func int32(_ offset: Int) -> Int32 {
        Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    @inline(__always) func coordinate(_ index: Int, axis: Int) -> Float {
        float(recordsOffset + index * Self.recordSize + 4 * axis)
    }

    /// Latitude and longitude of place `index`, degrees.
    public func position(at index: Int) -> (latitude: Double, longitude: Double) {
        let r = recordsOffset + index * Self.recordSize
        return (Double(int32(r + 12)) / 1e5, Double(int32(r + 16)) / 1e5)
    }

    /// The population of place `index`.
    public func population(at index: Int) -> Int {
        Int(UInt32(bitPattern: int32(recordsOffset + index * Self.recordSize + 20)))
    }

    /// The text fields of place `index`: name, ASCII name (empty when the same), country, region.
    func fields(at index: Int) -> [String] {
        let start = textOffset + Int(UInt32(bitPattern: int32(recordsOffset + index * Self.recordSize + 24)))
        var end = start
        let limit = textOffset + textSize
        while end < limit, base.load(fromByteOffset: end, as: UInt8.self) != 0 { end += 1 }
        let buffer = UnsafeRawBufferPointer(start: base + start, count: end - start)
        var fields: [String] = []
        var fieldStart = 0
        for (i, byte) in buffer.enumerated() where byte == 0x1F {
            fields.append(String(decoding: buffer[fieldStart..<i], as: UTF8.self))
            fieldStart = i + 1
        }
        fields.append(String(decoding: buffer[fieldStart...], as: UTF8.self))
        while fields.count < 4 { fields.append("") }
        return fields
    }

    /// The ASCII name of place `index` folded as `foldName` folds it (lower case, runs of anything
    /// but letters and digits made one space), into `out`; false when the name is not ASCII.
    func foldedASCIIName(at index: Int, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        let start = textOffset + Int(UInt32(bitPattern: int32(recordsOffset + index * Self.recordSize + 24)))
        let limit = textOffset + textSize
        // Field 1 (the ASCII name) when present, else field 0.
        var p = start
        while p < limit, base.load(fromByteOffset: p, as: UInt8.self) != 0x1F, base.load(fromByteOffset: p, as: UInt8.self) != 0 { p += 1 }
        var q = p + 1
        if p < limit, base.load(fromByteOffset: p, as: UInt8.self) == 0x1F, q < limit,
           base.load(fromByteOffset: q, as: UInt8.self) != 0x1F {
            p = q
        } else {
            p = start
        }
        q = p
        var pendingSpace = false
        while q < limit {
            var b = base.load(fromByteOffset: q, as: UInt8.self)
            if b == 0x1F || b == 0 { break }
            if b >= 0x80 { return false }
            if b >= 0x41 && b <= 0x5A { b += 0x20 }
            if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                if pendingSpace && !out.isEmpty { out.append(0x20) }
                pendingSpace = false
                out.append(b)
            } else {
                pendingSpace = true
            }
            q += 1
        }
        return true
    }

    /// The ASCII name of place `index` (the name itself when it is ASCII already).
    public func asciiName(at index: Int) -> String {
        let f = fields(at: index)
        return f[1].isEmpty ? f[0] : f[1]
    }

    /// Place `index`, decoded.
    public func place(at index: Int) -> Place {
        let f = fields(at: index)
        let p = position(at: index)
        return Place(name: f[0], asciiName: f[1].isEmpty ? f[0] : f[1], country: f[2], region: f[3],
                     population: population(at: index), latitude: p.latitude, longitude: p.longitude)
    }
}
