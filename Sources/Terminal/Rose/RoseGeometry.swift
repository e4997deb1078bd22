import Geodesy
import Glibc

/// The rose options: character set, label language and the cell shape.
public struct RoseOptions: Sendable, Equatable {
    /// Pure ASCII: a dotted ring instead of braille, "v" for the lubber mark, English letters.
    public var asciiOnly: Bool
    public var language: Language
    /// Height of a terminal cell divided by its width (about 2 for most fonts); corrects the ring
    /// so it is round on screen. Clamped to 1...3.
    public var cellAspect: Double
    /// Text in the middle of the card; nil shows the heading in whole degrees ("123°").
    public var centerText: String?
    /// A destination's bearing, in the same reference as the heading: drawn as a marker ("◆", "*")
    /// on the card inside the ring, or on the tape's top row. nil draws none.
    public var marker: Double?

    public init(asciiOnly: Bool = false, language: Language = .en, cellAspect: Double = 2,
                centerText: String? = nil, marker: Double? = nil) {
        self.asciiOnly = asciiOnly
        self.language = language
        self.cellAspect = cellAspect
        self.centerText = centerText
        self.marker = marker
    }
}

/// Which form the rose takes in the space it has.
public enum RoseForm: Sendable, Equatable {
    /// A full compass card (at least 15 × 8 cells).
    case card
    /// A horizontal heading tape under a centre mark (2 or more rows).
    case tape
    /// A single line: the tape with the heading in the middle.
    case line
}

/// Where the rose is drawn in a `columns` × `rows` area. The card is heading-up: a bearing `b`
/// sits at angle `b − heading` clockwise from the top. A point at angle θ and radius r (in rows)
/// is at x = cx + 0.5 + aspect·r·sin θ, y = cy + 0.5 − r·cos θ in cell units, and lands in cell
/// (⌊x⌋, ⌊y⌋). The lubber mark is at (centerColumn, 0).
///
/// ```swift
/// let g = RoseGeometry(columns: 45, rows: 24)
/// g.form                                             // .card
/// g.cell(bearing: 0, heading: 90, radius: g.cardinalRadius)   // where "N" goes: left of centre
/// ```
public struct RoseGeometry: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    public let form: RoseForm
    public let aspect: Double
    /// Rings from the top ring row to the centre row (card only; 0 otherwise).
    public let size: Int
    /// The centre cell (the tape and line use row 1 and row 0).
    public let centerColumn: Int
    public let centerRow: Int
    /// Radius of the outer ring, in rows.
    public let ringRadius: Double
    /// Radius at which the cardinal letters are centred, in rows.
    public let cardinalRadius: Double
    /// Radius of the degree numbers (equal to `cardinalRadius` on small cards).
    public let numberRadius: Double
    /// Radius of the intercardinal letters.
    public let intercardinalRadius: Double
    /// Degrees per column on the tape.
    public let tapeStep: Double

    public init(columns: Int, rows: Int, options: RoseOptions = RoseOptions()) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        let aspect = options.cellAspect.isFinite ? min(3, max(1, options.cellAspect)) : 2
        self.aspect = aspect
        centerColumn = max(0, (self.columns - 1) / 2)
        let half = min(centerColumn, self.columns - 1 - centerColumn)
        var k = (self.rows - 2) / 2
        while k >= 3, Int((aspect * (Double(k) + 0.375) - 0.5).rounded(.up)) > half { k -= 1 }
        tapeStep = self.columns >= 48 ? 2.5 : 5
        if k >= 3 {
            form = .card
            size = k
            centerRow = 1 + k
            ringRadius = Double(k) + 0.375
            let ticks = k >= 7
            numberRadius = ringRadius - (ticks ? 2.0 : 1.6)
            if k >= 8 {
                cardinalRadius = numberRadius
                intercardinalRadius = numberRadius - 2.25
            } else {
                cardinalRadius = numberRadius
                intercardinalRadius = numberRadius
            }
        } else {
            form = self.rows >= 2 ? .tape : .line
            size = 0
            centerRow = self.rows >= 2 ? 1 : 0
            ringRadius = 0
            cardinalRadius = 0
            numberRadius = 0
            intercardinalRadius = 0
        }
    }

    /// Continuous position (cell units) of a bearing at a radius on the card.
    public func point(bearing: Double, heading: Double, radius: Double) -> (x: Double, y: Double) {
        let theta = (bearing - heading) * Double.pi / 180
        return (Double(centerColumn) + 0.5 + aspect * radius * sin(theta),
                Double(centerRow) + 0.5 - radius * cos(theta))
    }

    /// The cell a bearing at a radius falls in on the card.
    public func cell(bearing: Double, heading: Double, radius: Double) -> (column: Int, row: Int) {
        let p = point(bearing: bearing, heading: heading, radius: radius)
        return (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
    }

    /// The column of a bearing on the tape (or line), or nil when it is off the strip.
    public func tapeColumn(bearing: Double, heading: Double) -> Int? {
        var delta = (bearing - heading).truncatingRemainder(dividingBy: 360)
        if delta > 180 { delta -= 360 }
        if delta <= -180 { delta += 360 }
        let column = centerColumn + Int((delta / tapeStep).rounded(.toNearestOrAwayFromZero))
        return column >= 0 && column < columns ? column : nil
    }
}
