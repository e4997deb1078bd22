import Platform

/// Why the QMC5883L data read did not confirm the chip.
enum DataCheckFailure: Error {
    case unreadable
    case noData
    case implausible(String)

    var text: String {
        switch self {
        case .unreadable: return "data registers unreadable"
        case .noData: return "no data-ready within 60 ms"
        case .implausible(let why): return "data read not sane: \(why)"
        }
    }
}

/// Confirms a weak QMC5883L identity with one measurement: continuous mode if the chip is in
/// standby (restored afterwards), wait for DRDY, read X/Y/Z, and check the field is plausible
/// (not all 0x00 or 0xff, no overflow, 1–800 µT). Returns the field magnitude in µT.
func qmc5883lDataCheck(_ p: AddressProbe) -> Result<Double, DataCheckFailure> {
    typealias R = QMC5883L.Register
    guard let control1 = p.read(R.control1) else { return .failure(.unreadable) }
    let wasContinuous = control1 & 0b11 == 0b01
    // ±8 G, 200 Hz, OSR 512, continuous: the driver's own setting.
    let measuring: UInt8 = wasContinuous ? control1 : 0b00_01_11_01
    if !wasContinuous {
        guard p.write(R.control1, measuring) else { return .failure(.unreadable) }
    }
    defer { if !wasContinuous { p.write(R.control1, control1) } }
    var status: UInt8 = 0
    for _ in 0..<12 {
        guard case .success(let value) = p.readFresh(R.status) else { return .failure(.unreadable) }
        status = value
        if status & QMC5883L.Status.dataReady != 0 { break }
        p.sleep(0.005)
    }
    guard status & QMC5883L.Status.dataReady != 0 else { return .failure(.noData) }
    guard let bytes = p.readBlock(R.dataXLSB, count: 6) else { return .failure(.unreadable) }
    if bytes.allSatisfy({ $0 == 0x00 }) { return .failure(.implausible("X, Y and Z all read 0")) }
    if bytes.allSatisfy({ $0 == 0xFF }) { return .failure(.implausible("X, Y and Z all read 0xffff")) }
    if status & QMC5883L.Status.overflow != 0 { return .failure(.implausible("overflow flag set")) }
    let range = QMC5883L.Range(rawValue: (measuring >> 4) & 0b11) ?? .gauss8
    guard let field = QMC5883L.decode(bytes, range: range) else { return .failure(.unreadable) }
    let magnitude = field.norm
    guard magnitude >= 1, magnitude <= 800 else {
        return .failure(.implausible("\(fixed(magnitude, 1)) µT is outside 1–800 µT"))
    }
    return .success(magnitude)
}
