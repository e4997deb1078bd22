import JSON
import Outputs
import Platform
import Sensors

/// Renders a scan as the table or the JSON `lodestone detect` prints.
enum DetectionReportFormat {
    /// Columns bus, address, chip, confidence, evidence; notes below.
    ///
    /// ```
    /// bus  address  chip      confidence  evidence
    /// 1    0x0d     QMC5883L  high        reg 0x0d = 0xff (QMC5883L chip id, weak alone), reg 0x0c = 0x01; …
    /// ```
    static func table(_ report: ScanReport, simulated: Bool) -> String {
        let header = ["bus", "address", "chip", "confidence", "evidence"]
        let rows = report.devices.map { d in
            [String(d.bus), hexAddress(d.address), d.chip.name, d.confidence.rawValue, sanitize(d.evidence)]
        }
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < 4 { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i < 4 ? cell + String(repeating: " ", count: widths[i] - cell.count + 2) : cell
            }.joined()
        }
        var out = [line(header)] + rows.map(line)
        out.append("")
        out += notes(report, simulated: simulated)
        return out.joined(separator: "\n") + "\n"
    }

    static func notes(_ report: ScanReport, simulated: Bool) -> [String] {
        var notes: [String] = []
        if simulated { notes.append("Simulated bus: the emulated chips answer exactly as real ones would.") }
        let busList = report.buses.map { "/dev/i2c-\($0)" }.joined(separator: ", ")
        if !simulated { notes.append("Scanned \(busList).") }
        for item in report.unopened {
            notes.append("Could not open /dev/i2c-\(item.bus): " + String(item.error.message.split(separator: "\n").first ?? ""))
        }
        if report.devices.contains(where: { $0.magnetometer == .qmc5883l }) {
            notes.append("A board sold as an HMC5883L (GY-271) that answers at 0x0d is a QMC5883L: "
                + "a different chip with a different register map.")
        }
        for board in report.probableBoards { notes.append("Probably a \(board).") }
        if let mag = report.preferredMagnetometer {
            var text = "Commands will use the \(mag.chip.name) on bus \(mag.bus) at \(hexAddress(mag.address))"
            if let accel = report.preferredAccelerometer(onBus: mag.bus) {
                text += ", with the \(accel.chip.name) accelerometer at \(hexAddress(accel.address)) for tilt"
                if accel.accelerometer?.hasGyroscope == true { text += " and its gyroscope for the rotation rate" }
            }
            notes.append(text + " (override with --sensor, --bus, --address).")
        } else {
            notes.append("No supported magnetometer was identified. Supported: "
                + ChipKind.allCases.map(\.displayName).joined(separator: ", ") + ".")
        }
        return notes
    }

    /// The same report as one JSON object (indented), in the one vocabulary (`ReportJSON.detection`).
    static func json(_ report: ScanReport, simulated: Bool) -> String {
        ReportJSON.detection(DetectionRecord(report, simulated: simulated)).serialized(pretty: true) + "\n"
    }
}
