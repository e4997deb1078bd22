import FuzzSupport
import GNSS

/// Any bytes as gpsd's lines: a report or a malformed-report error, fixes within their physical
/// ranges, and an epoch merger that never delivers a fix without a position.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGpsd(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var merger = EpochMerger()
    var now = 0.0
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        now += 0.2
        let report: GpsdReport
        do {
            report = try GpsdReport.parse(String(line))
        } catch {
            require(!error.message.isEmpty, "an error without a message")
            continue
        }
        switch report {
        case .tpv(let fix):
            if let lat = fix.lat { require((-90...90).contains(lat), "latitude out of range") }
            if let lon = fix.lon { require((-180...180).contains(lon), "longitude out of range") }
            require((fix.lat == nil) == (fix.lon == nil), "half a position")
            if let course = fix.course { require((0..<360).contains(course), "course out of range") }
            if let speed = fix.speed { require(speed >= 0 && speed.isFinite, "speed negative or not finite") }
            for e in [fix.eph, fix.epx, fix.epy, fix.epv, fix.eps, fix.epd] {
                if let e { require(e >= 0 && e.isFinite, "an error estimate negative or not finite") }
            }
            if let time = fix.time { require(time.isFinite, "a time that is not finite") }
            if fix.hasPosition {
                for epoch in merger.add(fix, at: now) { require(epoch.hasPosition, "an epoch without a position") }
            }
        case .version(let s), .error(let s), .other(let s):
            require(!s.unicodeScalars.contains { $0.value < 32 || $0.value == 127 }, "a control character passed on")
        case .devices(let paths):
            for p in paths { require(!p.unicodeScalars.contains { $0.value < 32 || $0.value == 127 }, "a control character passed on") }
        }
        if let fix = merger.poll(now: now) { require(fix.hasPosition, "an epoch without a position") }
    }
    if let fix = merger.flush() { require(fix.hasPosition, "an epoch without a position") }
    return 0
}
