import Foundation

/// The v1 log header as first released (27 columns): the contract scripts and spreadsheets rely on.
public let logHeaderV1 = "time,monotonic_s,raw_x_uT,raw_y_uT,raw_z_uT,cal_x_uT,cal_y_uT,cal_z_uT,field_uT,roll_deg,pitch_deg,"
    + "heading_mag_raw_deg,heading_mag_deg,declination_deg,declination_source,heading_true_deg,accuracy_deg,flags,"
    + "gnss_mode,lat_deg,lon_deg,alt_m,speed_mps,course_deg,eph_m,fix_distance_m,fix_bearing_deg"

/// The v1 header a new log gets: the first release's columns, then the raw inertial ones appended.
public let logHeader = logHeaderV1 + ",acc_x_g,acc_y_g,acc_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,roll_accuracy_deg,pitch_accuracy_deg"

/// What a log file looks like when checked against the rules every log must keep.
public struct LogCheck {
    public var rows: [[String]] = []
    public var problems: [String] = []
    /// Runs, split where monotonic_s decreases.
    public var runs: [[Double]] = []

    public init(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            problems.append("cannot read \(path)")
            return
        }
        let text = String(decoding: data, as: UTF8.self)
        if !text.hasSuffix("\n") { problems.append("the file does not end with a line end (partial line)") }
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard lines.first == logHeader else {
            problems.append("first line is not the header: \(lines.first ?? "")")
            return
        }
        var previousTime = ""
        var previousMonotonic = -Double.infinity
        for (i, line) in lines.enumerated().dropFirst() {
            if line == logHeader { problems.append("line \(i + 1): a second header"); continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 35 else { problems.append("line \(i + 1): \(fields.count) fields: \(line)"); continue }
            guard fields[0].count == 24, fields[0].hasSuffix("Z") else { problems.append("line \(i + 1): time \(fields[0])"); continue }
            if fields[0] < previousTime { problems.append("line \(i + 1): time goes back \(previousTime) → \(fields[0])") }
            previousTime = fields[0]
            guard let monotonic = Double(fields[1]) else { problems.append("line \(i + 1): monotonic_s \(fields[1])"); continue }
            if monotonic < previousMonotonic || runs.isEmpty { runs.append([]) }
            runs[runs.count - 1].append(monotonic)
            previousMonotonic = monotonic
            rows.append(fields)
        }
    }
}


