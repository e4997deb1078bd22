/// Names of the 32 compass points, index i centred on i × 11.25°. The 16-point names are the
/// even indices and the 8-point names every fourth.
enum CompassNames {
    /// English abbreviations: N, NbE ("north by east"), NNE, NEbN, NE, …
    static let english: [String] = [
        "N", "NbE", "NNE", "NEbN", "NE", "NEbE", "ENE", "EbN",
        "E", "EbS", "ESE", "SEbE", "SE", "SEbS", "SSE", "SbE",
        "S", "SbW", "SSW", "SWbS", "SW", "SWbW", "WSW", "WbS",
        "W", "WbN", "WNW", "NWbW", "NW", "NWbN", "NNW", "NbW",
    ]

    /// Chinese names of the direction of travel. The 16 points use the 偏 forms (东北偏北 is
    /// NNE: from north-east toward north); the odd "by" points use the nautical 微 forms
    /// (北微东 is N by E).
    static let chinese: [String] = [
        "北", "北微东", "东北偏北", "东北微北", "东北", "东北微东", "东北偏东", "东微北",
        "东", "东微南", "东南偏东", "东南微东", "东南", "东南微南", "东南偏南", "南微东",
        "南", "南微西", "西南偏南", "西南微南", "西南", "西南微西", "西南偏西", "西微南",
        "西", "西微北", "西北偏西", "西北微西", "西北", "西北微北", "西北偏北", "北微西",
    ]

    /// Index of the point of a 32-point rose that contains `degrees` (already in [0, 360)),
    /// stepping `stride` indices (1 for 32 points, 2 for 16, 4 for 8).
    ///
    /// Each point covers [centre − half step, centre + half step): an exact boundary belongs to
    /// the point clockwise of it.
    static func index(of degrees: Double, stride: Int) -> Int {
        let count = 32 / stride
        let step = 360 / Double(count)
        let slot = Int((degrees / step + 0.5).rounded(.down)) % count
        return slot * stride
    }

    /// Looks up a name (English compared case-insensitively after lower-casing by the caller;
    /// Chinese exactly) and returns the centre azimuth of the point.
    static func centre(ofEnglish lowercased: String) -> Double? {
        englishLowercased[lowercased].map { Double($0) * 11.25 }
    }

    static func centre(ofChinese name: String) -> Double? {
        chineseIndex[name].map { Double($0) * 11.25 }
    }

    private static let englishLowercased: [String: Int] = Dictionary(
        uniqueKeysWithValues: english.enumerated().map { ($0.element.lowercased(), $0.offset) })

    private static let chineseIndex: [String: Int] = Dictionary(
        uniqueKeysWithValues: chinese.enumerated().map { ($0.element, $0.offset) })
}
