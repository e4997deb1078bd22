import Foundation
import Geodesy
import Testing
@testable import Terminal

@Suite("dashboard")
struct DashboardTests {
    static let sizes: [(Int, Int)] = [(100, 32), (80, 24), (60, 22), (40, 15), (100, 1), (40, 1), (30, 5), (20, 3),
                                      (56, 12), (55, 12), (200, 60), (1, 1), (0, 0), (12, 2)]

    @Test("every layout gives exactly rows × columns cells, with and without colour")
    func exactSize() {
        for (columns, rows) in Self.sizes {
            for color in [false, true] {
                for language in Language.allCases {
                    for help in [false, true] {
                        var s = fullState()
                        s.colorEnabled = color
                        s.language = language
                        s.helpVisible = help
                        s.disturbance = Disturbance(level: .severe, text: "field 71 µT")
                        let lines = renderDashboard(state: s, columns: columns, rows: rows)
                        #expect(lines.count == rows)
                        for line in lines {
                            #expect(displayWidth(line) == columns, "\(columns)×\(rows) \(language) color \(color): [\(line)]")
                        }
                    }
                }
            }
        }
    }

    @Test("snapshots of the four main layouts and the one-line form")
    func snapshots() {
        let s = fullState()
        Snapshot.check(renderDashboard(state: s, columns: 100, rows: 32), "dashboard-100x32")
        Snapshot.check(renderDashboard(state: s, columns: 80, rows: 24), "dashboard-80x24")
        Snapshot.check(renderDashboard(state: s, columns: 60, rows: 22), "dashboard-60x22")
        Snapshot.check(renderDashboard(state: s, columns: 40, rows: 15), "dashboard-40x15")
        Snapshot.check(renderDashboard(state: s, columns: 100, rows: 1), "dashboard-100x1")
        var zh = s
        zh.language = .zh
        zh.helpVisible = true
        Snapshot.check(renderDashboard(state: zh, columns: 80, rows: 24), "dashboard-80x24-zh-help")
        var ascii = s
        ascii.asciiOnly = true
        ascii.primary = .true
        Snapshot.check(renderDashboard(state: ascii, columns: 100, rows: 32), "dashboard-100x32-ascii-true")
    }

    @Test("the headline shows the primary heading with its reference, the other one below")
    func headings() {
        var s = fullState()
        let magnetic = renderDashboard(state: s, columns: 80, rows: 24).joined(separator: "\n")
        #expect(magnetic.contains("123.4°M"))
        #expect(magnetic.contains("true 136.0°T"))
        s.primary = .true
        let truth = renderDashboard(state: s, columns: 80, rows: 24).joined(separator: "\n")
        #expect(truth.contains("136.0°T"))
        #expect(truth.contains("magnetic 123.4°M"))
        s.trueHeading = nil
        let fallback = renderDashboard(state: s, columns: 80, rows: 24).joined(separator: "\n")
        #expect(fallback.contains("123.4°M"))
        #expect(fallback.contains("true: unknown"))
    }

    @Test("no heading yet: placeholders, never NaN")
    func waiting() {
        var s = DashboardState()
        s.magneticHeading = .nan
        for (columns, rows) in Self.sizes {
            let text = renderDashboard(state: s, columns: columns, rows: rows).joined(separator: "\n")
            #expect(!text.lowercased().contains("nan"))
            #expect(!text.contains("inf"))
        }
        let text = renderDashboard(state: s, columns: 80, rows: 24).joined(separator: "\n")
        #expect(text.contains("---.-°M"))
        #expect(text.contains("waiting for the sensor"))
    }

    @Test("outside strings are sanitised: no control characters reach the terminal")
    func sanitised() {
        var s = fullState()
        s.reports = ["\u{1B}[2Jmoved\u{7} 5 m\r\n", "\u{9B}31mred", "left\u{202E}right"]
        s.sensor.chip = "QMC\u{1B}]0;title\u{7}5883L"
        s.gnss?.connection = "gpsd\u{0}ok"
        s.pointName = "S\u{1B}[1AE"
        s.notice = "\u{8}\u{8}oops"
        for (columns, rows) in [(100, 32), (80, 24), (40, 15), (100, 1)] {
            let text = renderDashboard(state: s, columns: columns, rows: rows).joined()
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        }
        let text = renderDashboard(state: s, columns: 100, rows: 32).joined(separator: "\n")
        #expect(text.contains("[2Jmoved 5 m"))
        #expect(text.contains("QMC]0;title5883L"))
        // With colour on, the only escapes are our SGR sequences.
        s.colorEnabled = true
        for line in renderDashboard(state: s, columns: 100, rows: 32) {
            #expect(!stripSGR(line).contains("\u{1B}"))
        }
    }

    @Test("colour only when enabled: disturbance red/yellow, stale fix yellow")
    func colour() {
        var s = fullState()
        s.disturbance = Disturbance(level: .severe, text: "iron nearby")
        s.gnss?.stale = true
        let plain = renderDashboard(state: s, columns: 80, rows: 24).joined()
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.contains("STALE"))
        s.colorEnabled = true
        let lines = renderDashboard(state: s, columns: 80, rows: 24)
        let severe = lines.first { $0.contains("iron nearby") } ?? ""
        #expect(severe.contains("\u{1B}[0;1;31m"))
        let stale = lines.first { $0.contains("STALE") } ?? ""
        #expect(stale.contains("\u{1B}[0;33m"))
        s.disturbance.level = .warning
        let warning = renderDashboard(state: s, columns: 80, rows: 24).first { $0.contains("iron nearby") } ?? ""
        #expect(warning.contains("\u{1B}[0;33m"))
        #expect(!warning.contains("31m"))
    }

    @Test("speed follows the unit setting")
    func units() {
        var s = fullState()
        s.gnss?.speed = 10
        let expected: [SpeedUnit: String] = [.kilometresPerHour: "36.0 km/h", .knots: "19.4 kn", .metresPerSecond: "10.0 m/s",
                                            .milesPerHour: "22.4 mph"]
        for unit in SpeedUnit.allCases {
            s.speedUnit = unit
            let text = renderDashboard(state: s, columns: 80, rows: 24).joined(separator: "\n")
            #expect(text.contains(expected[unit] ?? "?"), "\(unit)")
        }
    }

    @Test("the newest reports that fit are shown, oldest dropped first")
    func reportsScroll() {
        var s = fullState()
        s.reports = (1...40).map { "report \($0)" }
        let text = renderDashboard(state: s, columns: 80, rows: 24).joined(separator: "\n")
        #expect(text.contains("report 40"))
        #expect(!text.contains("report 1 "))
        #expect(!text.contains("report 30\n") || text.contains("report 39"))
    }

    @Test("status line lists the keys; Chinese labels in zh; English fallback in ASCII")
    func statusLine() {
        var s = fullState()
        #expect(renderDashboard(state: s, columns: 80, rows: 24).last?.hasPrefix("q quit  t true/mag  u units  l language  c calibrate  r reset  ? help") == true)
        s.language = .zh
        let zh = renderDashboard(state: s, columns: 80, rows: 24)
        #expect(zh.last?.contains("q 退出") == true)
        #expect(zh.joined().contains("北"))
        s.asciiOnly = true
        let ascii = renderDashboard(state: s, columns: 80, rows: 24)
        #expect(ascii.last?.hasPrefix("q quit") == true)
        #expect(ascii.allSatisfy { $0.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } })
    }

    @Test("the one-line form and the plain line for pipes")
    func oneLine() {
        let s = fullState()
        let line = renderDashboard(state: s, columns: 100, rows: 1)[0]
        #expect(line.hasPrefix("123.4°M  SE"))
        #expect(line.contains("▼"))
        let plain = renderPlainLine(state: s)
        #expect(plain == "123.4°M  SE  S 56.6° E  ±2.5°")
        var ascii = s
        ascii.asciiOnly = true
        #expect(renderPlainLine(state: ascii) == "123.4dM  SE  S 56.6d E  +-2.5d")
    }

    @Test("with a gyroscope the tilt line adds the rate of turn in degrees per minute, negative to port")
    func rateOfTurn() {
        var s = fullState()
        s.rateOfTurn = -0.5
        let text = renderDashboard(state: s, columns: 100, rows: 32).joined(separator: "\n")
        #expect(text.contains("turn -30°/min"), "\(text)")
        s.rateOfTurn = nil
        #expect(!renderDashboard(state: s, columns: 100, rows: 32).joined(separator: "\n").contains("°/min"))
    }

    @Test("settings laid over a state, and key actions change them")
    func settings() {
        var settings = DashboardSettings()
        settings.apply(.toggleReference)
        settings.apply(.cycleUnits)
        settings.apply(.toggleLanguage)
        settings.apply(.toggleHelp)
        let s = settings.applied(to: fullState())
        #expect(s.primary == .true && s.speedUnit == .knots && s.language == .zh && s.helpVisible)
        settings.apply(.closeHelp)
        #expect(!settings.helpVisible)
        settings.apply(.cycleUnits)
        settings.apply(.cycleUnits)
        #expect(settings.speedUnit == .milesPerHour)
        settings.apply(.cycleUnits)
        #expect(settings.speedUnit == .kilometresPerHour, "the cycle comes back round")
        settings.apply(.toggleReference)
        settings.apply(.toggleLanguage)
        #expect(settings.primary == .magnetic && settings.language == .en)
        let before = settings
        settings.apply(.quit)
        #expect(settings == before)
    }
}
