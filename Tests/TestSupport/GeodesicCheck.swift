import Foundation

// Independent checks for the integration tests' output.

/// Vincenty's inverse formula on WGS84: distance (m) and initial azimuth (degrees, [0, 360)).
/// Independent of the Geodesy module (which uses Karney's method).
public func vincentyInverse(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> (distance: Double, azimuth: Double) {
    let a = 6_378_137.0, f = 1 / 298.257223563
    let b = a * (1 - f)
    let rad = Double.pi / 180
    let l = (lon2 - lon1) * rad
    let u1 = atan((1 - f) * tan(lat1 * rad)), u2 = atan((1 - f) * tan(lat2 * rad))
    let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)
    var lambda = l
    var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cos2Alpha = 0.0, cos2SigmaM = 0.0
    for _ in 0..<200 {
        let sinLambda = sin(lambda), cosLambda = cos(lambda)
        let t1 = cosU2 * sinLambda, t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
        sinSigma = (t1 * t1 + t2 * t2).squareRoot()
        if sinSigma == 0 { return (0, 0) }
        cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
        sigma = atan2(sinSigma, cosSigma)
        let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
        cos2Alpha = 1 - sinAlpha * sinAlpha
        cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
        let c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
        let previous = lambda
        lambda = l + (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        if abs(lambda - previous) < 1e-13 { break }
    }
    let uSquared = cos2Alpha * (a * a - b * b) / (b * b)
    let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
    let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
    let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
        - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
    let distance = b * bigA * (sigma - deltaSigma)
    var azimuth = atan2(cosU2 * sin(lambda), cosU1 * sinU2 - sinU1 * cosU2 * cos(lambda)) / rad
    if azimuth < 0 { azimuth += 360 }
    return (distance, azimuth)
}

/// CSV rows (without the header) as dictionaries keyed by the header's names.
public func trackCSVRows(_ text: String) -> [[String: String]] {
    let lines = text.split(separator: "\n").map(String.init)
    guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
    return lines.dropFirst().map { line in
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var row: [String: String] = [:]
        for (k, name) in header.enumerated() { row[name] = k < fields.count ? fields[k] : nil }
        return row
    }
}
