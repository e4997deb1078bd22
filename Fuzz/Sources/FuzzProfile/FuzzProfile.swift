import Calibration
import FuzzSupport
import Linear

/// Any text as a calibration file or profile document: an error with a message, or profiles whose
/// correction gives finite fields and headings, and which survive writing and reading again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let file: CalibrationProfileFile
    do {
        file = try CalibrationProfileFile.decodeFileOrProfile(text)
    } catch {
        require(!error.message.isEmpty, "an error without a message")
        return 0
    }
    let probes = [Vector3(20, -5, 42), Vector3(-300, 250, 1200), Vector3(0, 0, 0)]
    for profile in file.profiles {
        for probe in probes {
            let scaled = probe * max(1, profile.fieldStrength / 50)
            let corrected = profile.apply(scaled)
            require(corrected.isFinite && corrected.squaredNorm.isFinite, "a corrected field that is not finite")
        }
        if let yaw = profile.yawOffsetDegrees { require(abs(yaw) <= 360, "a yaw beyond ±360° accepted") }
        if let card = profile.deviation {
            for heading in stride(from: 0.0, to: 360, by: 7.5) {
                require(card.correction(atHeading: heading).isFinite, "a deviation that is not finite")
            }
        }
        if let a = profile.accelerometer {
            require(a.apply(Vector3(0, 0, 1)).isFinite, "an accelerometer correction that is not finite")
        }
    }
    // What was read is written and read back unchanged.
    let again: CalibrationProfileFile
    do {
        again = try CalibrationProfileFile.decode(file.serialized())
    } catch {
        require(false, "a profile written from one that was read is refused: \(error.message)")
        return 0
    }
    require(again == file, "a profile changed when written and read again")
    return 0
}
