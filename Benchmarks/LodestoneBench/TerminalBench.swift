import Terminal

/// Terminal benchmarks: one full dashboard frame (rose + panels) into the final output string.
/// Goal: `render.frame` (80 × 24) ≤ 100 µs in release.
func runTerminalBenchmarks() {
    let state = sampleDashboardState()
    var heading = 0.0
    bench("render.frame", iterations: 2_000, extra: [("columns", "80"), ("rows", "24"), ("goal_us", "100")]) { n in
        for _ in 0..<n {
            var s = state
            s.magneticHeading = heading
            heading += 1.7
            if heading >= 360 { heading -= 360 }
            let lines = renderDashboard(state: s, columns: 80, rows: 24)
            blackHole(encodeFrame(lines, columns: 80, rows: 24))
        }
    }
    bench("render.frame.100x32", iterations: 1_000, extra: [("columns", "100"), ("rows", "32")]) { n in
        for _ in 0..<n {
            var s = state
            s.magneticHeading = heading
            heading += 1.7
            if heading >= 360 { heading -= 360 }
            blackHole(encodeFrame(renderDashboard(state: s, columns: 100, rows: 32), columns: 100, rows: 32))
        }
    }
    bench("render.rose.45x22", iterations: 2_000) { n in
        for _ in 0..<n {
            heading += 1.7
            if heading >= 360 { heading -= 360 }
            blackHole(renderRose(heading: heading, columns: 45, rows: 22))
        }
    }
}

/// A dashboard with every panel filled, as on a Pi with a sensor and a GNSS fix.
private func sampleDashboardState() -> DashboardState {
    var s = DashboardState()
    s.magneticHeading = 123.4
    s.trueHeading = 136.0
    s.pointName = "SE"
    s.quadrant = "S 56.6° E"
    s.accuracy = 2.5
    s.disturbance = Disturbance(level: .warning, text: "field 71 µT, expected 57 µT")
    s.declination = 12.6
    s.declinationSource = "WMM2025 at GNSS fix"
    s.fieldStrength = 57.2
    s.roll = 1.2
    s.pitch = -0.5
    s.sensor = SensorPanel(chip: "QMC5883L", bus: 1, address: 0x0d, rateHz: 50, errorCount: 2, status: "ok")
    s.gnss = GNSSPanel(fixMode: "3D fix", latitude: -33.8688, longitude: 151.2093, speed: 1.2, course: 123,
                       horizontalError: 4.2, ageSeconds: 0.8, stale: false, connection: "gpsd connected")
    s.reports = (1...8).map { "12:0\($0):00  moved \($0 * 12) m toward 123° SE" }
    s.colorEnabled = true
    return s
}
