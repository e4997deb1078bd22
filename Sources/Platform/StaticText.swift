/// Appends a literal's bytes to `out` without making a `String`: for writers that build a line of
/// bytes from fixed words (NMEA sentence types, Signal K paths and keys).
///
/// ```swift
/// var line: [UInt8] = []
/// appendStatic("HDM", to: &line)   // "HDM"
/// ```
@inline(__always)
public func appendStatic(_ text: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
}
