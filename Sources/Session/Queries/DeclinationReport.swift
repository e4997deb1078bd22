import Geomagnetism
import Platform

/// The readable `lodestone declination` output, in the style of NOAA's calculator.
enum DeclinationReport {
    static func text(_ f: MagneticField, lat: Double, lon: Double, height: Double, year: Double,
                     model: WorldMagneticModel) -> String {
        let place = fixed(abs(lat), 4) + "° " + (lat < 0 ? "S" : "N") + ", "
            + fixed(abs(lon > 180 ? lon - 360 : lon), 4) + "° " + ((lon > 180 ? lon - 360 : lon) < 0 ? "W" : "E")
        var lines = [
            "\(model.name) at \(place), \(fixed(height, 3)) km above the WGS84 ellipsoid, date \(fixed(year, 3))",
            "",
            row("Declination", dms(f.declination, positive: "E", negative: "W"),
                "(\(fixed(f.declination, 2))° ± \(fixed(f.uncertainty.declination, 2))°)",
                "changing \(fixed(abs(f.secular.declination), 2))° \(f.secular.declination >= 0 ? "E" : "W") per year"),
            row("Inclination", dms(f.inclination, positive: "down", negative: "up"),
                "(\(fixed(f.inclination, 2))° ± \(fixed(f.uncertainty.inclination, 2))°)",
                "changing \(signed(f.secular.inclination, 2))° per year"),
            row("Horizontal", nT(f.horizontal), "± \(nT(f.uncertainty.horizontal))", "changing \(signed(f.secular.horizontal, 1)) nT per year"),
            row("North (X)", nT(f.north), "± \(nT(f.uncertainty.north))", "changing \(signed(f.secular.north, 1)) nT per year"),
            row("East (Y)", nT(f.east), "± \(nT(f.uncertainty.east))", "changing \(signed(f.secular.east, 1)) nT per year"),
            row("Down (Z)", nT(f.down), "± \(nT(f.uncertainty.down))", "changing \(signed(f.secular.down, 1)) nT per year"),
            row("Total (F)", nT(f.total), "± \(nT(f.uncertainty.total))", "changing \(signed(f.secular.total, 1)) nT per year"),
        ]
        if let gv = f.gridVariation {
            lines.append(row("Grid variation", fixed(gv, 2) + "°", "", "changing \(signed(f.secular.gridVariation ?? 0, 2))° per year"))
        }
        lines.append("")
        switch f.zone {
        case .normal:
            lines.append("Zone: normal. True heading = magnetic heading + declination (east positive).")
        case .caution:
            lines.append("Zone: CAUTION — the horizontal field is weak (< 6000 nT); compass headings here are degraded.")
        case .blackout:
            lines.append("Zone: BLACKOUT — the horizontal field is below 2000 nT; a magnetic compass is unreliable here.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ name: String, _ value: String, _ detail: String, _ change: String) -> String {
        pad(name, 16) + pad(value, 14) + pad(detail, 22) + change
    }

    private static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }

    /// 12.873 → "12° 52' E".
    static func dms(_ degrees: Double, positive: String, negative: String) -> String {
        var minutes = (abs(degrees) * 60).rounded()
        let whole = (minutes / 60).rounded(.down)
        minutes -= whole * 60
        let side = minutes == 0 && whole == 0 ? "" : " " + (degrees >= 0 ? positive : negative)
        return "\(Int(whole))° \(Int(minutes))'" + side
    }

    private static func nT(_ v: Double) -> String { fixed(v, 1) + " nT" }

    private static func signed(_ v: Double, _ d: Int) -> String {
        let s = fixed(v, d)
        return s.hasPrefix("-") ? s : "+" + s
    }
}
