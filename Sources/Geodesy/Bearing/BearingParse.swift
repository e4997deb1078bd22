/// Reads a bearing written in any of the forms ``formatBearing(_:style:language:reference:)``
/// produces, and common variants, and returns degrees clockwise from north in [0, 360).
///
/// Accepted (case-insensitive, spaces optional):
/// - degrees: "123.4", "123.4°", "123.4T", "123.4 °M", "123°T", "123 deg", "123度";
/// - compass points: "N", "NNE", "NbE", "N by E", "north-northeast", 16 and 32 points,
///   parsed to the centre of the point;
/// - quadrant: "N30°E", "n 30 e", "S45W" (angle 0…90 from N or S);
/// - Chinese: 正北, 东北, 东北偏北, 北微东, 北偏东30度, 南偏西45°; also 东偏北30度 (from E or W).
///
/// A reference may follow: "T"/"M" after degrees, or "(T)", "(M)", "（真北）", "（磁北）"
/// after any form; ``parseBearingWithReference(_:)`` reports it.
///
/// ```swift
/// try parseBearing("123.4°T")    // 123.4
/// try parseBearing("NNE")        // 22.5
/// try parseBearing("S45°W")      // 225
/// try parseBearing("北偏东30度")  // 30
/// ```
public func parseBearing(_ text: String) throws(BearingParseError) -> Double {
    try parseBearingWithReference(text).degrees
}

/// Like ``parseBearing(_:)``, and also returns the north reference named in the text.
///
/// ```swift
/// let b = try parseBearingWithReference("123°M")   // degrees 123, reference .magneticNorth
/// ```
public func parseBearingWithReference(_ text: String) throws(BearingParseError) -> ParsedBearing {
    var body = text.bearingNormalized.trimmingBearingSpaces
    guard !body.isEmpty else { throw .empty }
    var reference = stripReference(&body)
    guard !body.isEmpty else { throw .unrecognized(text) }

    var degrees = try parseDegrees(body, reference: &reference)
    if degrees == nil { degrees = parseEnglishName(body) }
    if degrees == nil { degrees = try parseEnglishQuadrant(body) }
    if degrees == nil { degrees = parseChineseName(body) }
    if degrees == nil { degrees = try parseChineseQuadrant(body) }
    guard let degrees else { throw .unrecognized(text) }
    return ParsedBearing(degrees: normalizeDegrees(degrees), reference: reference)
}

/// Removes a reference marker from the start or end of `body` and returns it.
private func stripReference(_ body: inout String) -> NorthReference? {
    let suffixes: [(String, NorthReference)] = [
        ("(真北)", .trueNorth), ("(真)", .trueNorth), ("(磁北)", .magneticNorth), ("(磁)", .magneticNorth),
        ("(true)", .trueNorth), ("(t)", .trueNorth),
        ("(magnetic)", .magneticNorth), ("(mag)", .magneticNorth), ("(m)", .magneticNorth),
        (" true", .trueNorth), (" t", .trueNorth),
        (" magnetic", .magneticNorth), (" mag", .magneticNorth), (" m", .magneticNorth),
    ]
    for (marker, reference) in suffixes where body.hasSuffix(marker) {
        body = String(body.dropLast(marker.count)).trimmingBearingSpaces
        return reference
    }
    let prefixes: [(String, NorthReference)] = [("真方位", .trueNorth), ("磁方位", .magneticNorth)]
    for (marker, reference) in prefixes where body.hasPrefix(marker) {
        body = String(body.dropFirst(marker.count)).trimmingBearingSpaces
        return reference
    }
    return nil
}

/// "123.4", "123.4°", "123.4T", "123.4 °M", "123度". A trailing t/m sets the reference.
private func parseDegrees(_ body: String, reference: inout NorthReference?)
    throws(BearingParseError) -> Double?
{
    var scan = BearingScanner(body)
    let negative = scan.take("-")
    if !negative { _ = scan.take("+") }
    scan.skipSpaces()
    guard let value = scan.number() else { return nil }
    scan.skipSpaces()
    scan.degreeUnit()
    scan.skipSpaces()
    if reference == nil, let letter = scan.takeOne(of: ["t", "m"]) {
        reference = letter == 0 ? .trueNorth : .magneticNorth
    }
    guard scan.atEnd else { return nil }
    let degrees = negative ? -value : value
    guard degrees >= 0 && degrees <= 360 else { throw .degreesOutOfRange(degrees) }
    return degrees
}

/// English words reduced to compass letters: "north by east" → "nbe".
private func compassLetters(_ body: String) -> String {
    body.replacingAll("north", with: "n").replacingAll("east", with: "e")
        .replacingAll("south", with: "s").replacingAll("west", with: "w")
        .replacingAll("by", with: "b")
}

/// "N", "NNE", "NbE", "N by E", "north-northeast".
private func parseEnglishName(_ body: String) -> Double? {
    CompassNames.centre(ofEnglish: compassLetters(body).withoutSpacesOrHyphens)
}

/// "N30°E", "n 30 e", "S45W", "north 30 east".
private func parseEnglishQuadrant(_ body: String) throws(BearingParseError) -> Double? {
    var scan = BearingScanner(compassLetters(body))
    guard let from = scan.takeOne(of: ["n", "s"]) else { return nil }
    scan.skipSpaces()
    guard let angle = scan.number() else { return nil }
    scan.skipSpaces()
    scan.degreeUnit()
    scan.skipSpaces()
    guard let toward = scan.takeOne(of: ["e", "w"]) else { return nil }
    scan.skipSpaces()
    guard scan.atEnd else { return nil }
    return try quadrantDirection(from: from == 0 ? 0 : 180, angle: angle,
                                 clockwise: (from == 0) == (toward == 0))
}

/// 正北, 北, 东北, 东北偏北, 北微东.
private func parseChineseName(_ body: String) -> Double? {
    var name = body.withoutSpacesOrHyphens
    if name.hasPrefix("正") {
        name.removeFirst()
        guard ["北", "东", "南", "西"].contains(name) else { return nil }
    }
    return CompassNames.centre(ofChinese: name)
}

/// 北偏东30度, 南偏西45°, and the east/west-based 东偏北30度.
private func parseChineseQuadrant(_ body: String) throws(BearingParseError) -> Double? {
    var scan = BearingScanner(body)
    let axes = ["北", "东", "南", "西"]  // index × 90 = azimuth
    guard let from = scan.takeOne(of: axes) else { return nil }
    scan.skipSpaces()
    guard scan.take("偏") else { return nil }
    scan.skipSpaces()
    guard let toward = scan.takeOne(of: axes), (from + toward) % 2 == 1 else { return nil }
    scan.skipSpaces()
    guard let angle = scan.number() else { return nil }
    scan.skipSpaces()
    scan.degreeUnit()
    scan.skipSpaces()
    guard scan.atEnd else { return nil }
    // Turning from `from` toward `toward` is clockwise when toward = from + 90°.
    return try quadrantDirection(from: Double(from * 90), angle: angle,
                                 clockwise: toward == (from + 1) % 4)
}

private func quadrantDirection(from base: Double, angle: Double, clockwise: Bool)
    throws(BearingParseError) -> Double
{
    guard angle <= 90 else { throw .quadrantAngleOutOfRange(angle) }
    return clockwise ? base + angle : base - angle
}
