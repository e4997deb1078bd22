import FuzzSupport
import Session

/// Any bytes as a recording, with and without a required time: no crash, an error with a message,
/// or a recording whose columns line up and whose values are finite.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for requireTime in [false, true] {
        do {
            let r = try Recording.parse(bytes, path: "fuzz.csv", requireTime: requireTime)
            let n = r.magnetic.count
            require(n > 0, "a recording without samples")
            require(r.magnetic.allSatisfy(\.isFinite), "a sample that is not finite")
            require(r.badRowCount <= r.rowCount && n + r.badRowCount == r.rowCount, "rows do not add up")
            require(r.badRows.count == min(r.badRowCount, Recording.keptBadRows), "bad-row examples miscounted")
            require(r.times.map { $0.count == n } ?? true, "times not aligned")
            require(r.timeTexts.map { $0.count == n } ?? true, "time texts not aligned")
            require(r.acceleration.map { $0.count == n } ?? true, "acceleration not aligned")
            require(r.rotationRate.map { $0.count == n } ?? true, "rotation rate not aligned")
            if requireTime {
                require(r.times?.allSatisfy { $0?.isFinite == true } == true, "a required time missing")
            }
            require(r.magneticColumns.count == 3, "not three magnetometer columns")
        } catch {
            require(!error.message.isEmpty, "an error without a message")
            require(!error.message.unicodeScalars.contains { $0.value < 32 && $0 != "\n" }, "a control character in a message")
        }
    }
    return 0
}
