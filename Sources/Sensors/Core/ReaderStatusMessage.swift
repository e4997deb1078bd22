import Platform

extension ReaderStatus {
    /// One line for the display, or nil when all is well.
    ///
    /// ```swift
    /// ReaderStatus.notResponding(since: 10).message(for: info, now: 14)
    /// // "sensor not responding on bus 1 at 0x0d (4 s): check the wiring and power"
    /// ```
    public func message(for info: SensorInfo, now: Double) -> String? {
        let place = "on bus \(info.bus) at \(hexAddress(info.address))"
        switch self {
        case .ok:
            return nil
        case .retrying(let attempt, let error):
            let reason: String
            switch error {
            case .bus(.noAcknowledge): reason = "no acknowledge (errno 121)"
            case .bus(.timeout): reason = "bus timeout"
            default: reason = String(error.message.split(separator: "\n").first ?? "I/O error")
            }
            return "\(info.chip.displayName) \(place): \(reason), retrying (\(attempt) in a row)"
        case .notResponding(let since):
            return "sensor not responding \(place) (\(seconds(now - since))): check the wiring and power"
        case .noData(let since):
            return "\(info.chip.displayName) \(place) has produced no data for \(seconds(now - since))"
        case .stuck(let since):
            return "\(info.chip.displayName) readings unchanged for \(seconds(now - since)): "
                + "the sensor may be stuck; power-cycle it"
        }
    }
}

extension MagnetometerReader {
    /// The status as one line for the display, or nil when samples are flowing normally.
    public var statusMessage: String? {
        status.message(for: magnetometer.info, now: clockNow())
    }
}

/// "0.4 s", "12 s": a duration to a tenth below ten seconds, whole seconds above.
func seconds(_ value: Double) -> String {
    guard value.isFinite, value > 0 else { return "0 s" }
    if value >= 10 { return "\(Int(value.rounded())) s" }
    return fixed(value, 1) + " s"
}
