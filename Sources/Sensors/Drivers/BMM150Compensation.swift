import Linear

/// One raw BMM150 reading: X and Y (13-bit signed), Z (15-bit signed), RHALL (14-bit unsigned).
///
/// ```swift
/// let raw = BMM150Raw(registers: bytes)   // registers 0x42–0x49
/// ```
public struct BMM150Raw: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var z: Int
    /// The Hall plate resistance, which tracks temperature.
    public var rhall: Int

    public init(x: Int, y: Int, z: Int, rhall: Int) {
        self.x = x
        self.y = y
        self.z = z
        self.rhall = rhall
    }

    /// Unpacks registers 0x42–0x49: each value sits in the top bits of its LSB/MSB pair, with flag bits
    /// (self-test, data ready) below. Nil when fewer than 8 bytes.
    @inlinable
    public init?(registers b: [UInt8]) {
        guard b.count >= 8 else { return nil }
        func word(_ i: Int) -> Int16 { Int16(bitPattern: UInt16(b[i + 1]) << 8 | UInt16(b[i])) }
        x = Int(word(0) >> 3)                 // arithmetic shift keeps the sign
        y = Int(word(2) >> 3)
        z = Int(word(4) >> 1)
        rhall = Int(UInt16(bitPattern: word(6)) >> 2)
    }
}

/// The BMM150's factory trim and the compensation that turns raw counts into microtesla.
///
/// The formulas follow the floating-point compensation in Bosch's BMM150 datasheet and sensor API:
/// X and Y get a gain that depends on the Hall resistance (temperature) through `xyz1`, `xy1`, `xy2`,
/// a per-axis gain (`x2`, `y2`) and offset (`x1`, `y1`); Z is linear in the raw count with a
/// resistance-dependent gain (`z1`, `z2`) and offsets (`z3`, `z4`). Output in µT.
///
/// ```swift
/// if let trim = BMM150Trim(registers: trimBytes),   // registers 0x5D–0x71
///    let raw = BMM150Raw(registers: dataBytes) {     // registers 0x42–0x49
///     let field = trim.compensate(raw)              // µT, nil on overflow
/// }
/// ```
public struct BMM150Trim: Sendable, Equatable {
    public var x1: Int8, y1: Int8, x2: Int8, y2: Int8
    public var z1: UInt16
    public var z2: Int16, z3: Int16, z4: Int16
    public var xy1: UInt8
    public var xy2: Int8
    /// 15 bits (the top bit of its MSB register is reserved).
    public var xyz1: UInt16

    /// X and Y read this when their ADC overflowed.
    public static let xyOverflow = -4096
    /// Z reads this when its ADC overflowed.
    public static let zOverflow = -16384

    public init(x1: Int8 = 0, y1: Int8 = 0, x2: Int8 = 0, y2: Int8 = 0, z1: UInt16 = 0, z2: Int16 = 0,
                z3: Int16 = 0, z4: Int16 = 0, xy1: UInt8 = 0, xy2: Int8 = 0, xyz1: UInt16 = 0) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        self.z1 = z1; self.z2 = z2; self.z3 = z3; self.z4 = z4
        self.xy1 = xy1; self.xy2 = xy2; self.xyz1 = xyz1
    }

    /// Parses the 21 bytes read from 0x5D (through 0x71). Nil when short.
    public init?(registers r: [UInt8]) {
        guard r.count >= BMM150.trimLength else { return nil }
        func at(_ register: Int) -> UInt8 { r[register - 0x5D] }
        func word(_ register: Int) -> UInt16 { UInt16(at(register + 1)) << 8 | UInt16(at(register)) }
        x1 = Int8(bitPattern: at(0x5D))
        y1 = Int8(bitPattern: at(0x5E))
        z4 = Int16(bitPattern: word(0x62))
        x2 = Int8(bitPattern: at(0x64))
        y2 = Int8(bitPattern: at(0x65))
        z2 = Int16(bitPattern: word(0x68))
        z1 = word(0x6A)
        xyz1 = word(0x6C) & 0x7FFF
        z3 = Int16(bitPattern: word(0x6E))
        xy2 = Int8(bitPattern: at(0x70))
        xy1 = at(0x71)
    }

    /// The field in µT, or nil when an axis overflowed, RHALL is 0, or the trim is unusable.
    @inlinable
    public func compensate(_ raw: BMM150Raw) -> Vector3? {
        guard let x = compensateXY(raw.x, rhall: raw.rhall, offset: x1, gain: x2),
              let y = compensateXY(raw.y, rhall: raw.rhall, offset: y1, gain: y2),
              let z = compensateZ(raw.z, rhall: raw.rhall) else { return nil }
        return Vector3(x, y, z)
    }

    /// The temperature-dependent X/Y gain term for a Hall resistance (256 when RHALL equals `xyz1`).
    @inlinable
    public func xyGain(rhall: Int) -> Double? {
        guard rhall != 0, xyz1 != 0 else { return nil }
        let deviation = Double(xyz1) * 16384 / Double(rhall) - 16384
        return Double(xy2) * deviation * deviation / 268_435_456 + deviation * Double(xy1) / 16384 + 256
    }

    /// The Z gain denominator term for a Hall resistance: 4·(z2 + z1·RHALL / 32768).
    @inlinable
    public func zGain(rhall: Int) -> Double? {
        guard rhall != 0, z1 != 0, z2 != 0, xyz1 != 0 else { return nil }
        let g = 4 * (Double(z2) + Double(z1) * Double(rhall) / 32768)
        return g == 0 ? nil : g
    }

    /// X or Y in µT: (raw · gain · (axisGain + 160) / 8192 + 8 · axisOffset) / 16.
    @inlinable
    public func compensateXY(_ raw: Int, rhall: Int, offset: Int8, gain axisGain: Int8) -> Double? {
        guard raw != Self.xyOverflow, let g = xyGain(rhall: rhall) else { return nil }
        let value = (Double(raw) * g * (Double(axisGain) + 160) / 8192 + 8 * Double(offset)) / 16
        return value.isFinite ? value : nil
    }

    /// Z in µT: ((raw − z4) · 131072 − z3 · (RHALL − xyz1)) / zGain / 16.
    @inlinable
    public func compensateZ(_ raw: Int, rhall: Int) -> Double? {
        guard raw != Self.zOverflow, let g = zGain(rhall: rhall) else { return nil }
        let value = ((Double(raw) - Double(z4)) * 131072 - Double(z3) * (Double(rhall) - Double(xyz1))) / g / 16
        return value.isFinite ? value : nil
    }
}
