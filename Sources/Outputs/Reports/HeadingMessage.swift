import Platform

/// One heading update as every output of `serve` gets it: the report, the current fix, and the
/// update's JSON object (heading-update.schema.json, the current fix under "fix", null without
/// one) written at most once, however many outputs send it (the JSON lines and MQTT's
/// `…/heading`). The bytes are `ReportJSON.heading(report, fix:).serialized()`'s, from the same
/// list of fields.
///
/// ```swift
/// let message = HeadingMessage()
/// message.reset(report, fix: fix)   // each update
/// message.appendJSON(to: &line)     // the update's object, for every output that sends it
/// ```
public final class HeadingMessage {
    /// The update. This and `fix` are not checked for exclusivity at run time (each sink reads them
    /// at every update): set only by `reset`, which calls nothing, and read at once.
    @exclusivity(unchecked) public private(set) var report: HeadingReport
    @exclusivity(unchecked) public private(set) var fix: FixReport?
    /// The JSON's text and whether it is this update's. Not checked for exclusivity at run time (as
    /// `HeadingPipeline`'s stage; the check cost more than copying the text): it is private, the
    /// message is not Sendable, and nothing called during an access can reach the message.
    @exclusivity(unchecked) private var text = Text()
    /// How many times the JSON has been written (once per update at most).
    public var jsonWrites: Int { text.writes }

    private struct Text {
        /// `{` and the fields before the fix, then `"fix":`; valid when `written`.
        var beforeFix: [UInt8] = []
        /// The fix's object (empty without a fix); valid when `written`.
        var fixObject: [UInt8] = []
        /// The fix `fixObject` was written for. A fix comes about once a second and each update
        /// carries the latest, so its object is written again only when the fix changes (equal
        /// reports write the same bytes: the one formatter writes −0 as 0, and NaN is never equal).
        var fixWritten: FixReport?
        var written = false
        var writes = 0

        mutating func write(_ report: HeadingReport, fix: FixReport?) {
            beforeFix.removeAll(keepingCapacity: true)
            ReportJSON.appendHeadingBeforeFix(report, to: &beforeFix)
            if fix != fixWritten || fix == nil {
                fixObject.removeAll(keepingCapacity: true)
                if let fix { ReportJSON.appendFix(fix, to: &fixObject) }
                fixWritten = fix
            }
            written = true
            writes += 1
        }

        func append(to out: inout [UInt8]) {
            out.append(contentsOf: beforeFix)
            if !fixObject.isEmpty {
                out.append(contentsOf: fixObject)
            } else {
                appendStatic("null", to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    public init(_ report: HeadingReport = HeadingReport(wall: 0, monotonic: 0, magneticHeading: 0), fix: FixReport? = nil) {
        self.report = report
        self.fix = fix
        text.beforeFix.reserveCapacity(512)
        text.fixObject.reserveCapacity(256)
    }

    /// The next update: its JSON is written again when first asked for (the buffers are kept).
    public func reset(_ report: HeadingReport, fix: FixReport?) {
        self.report = report
        self.fix = fix
        text.written = false
    }

    /// Appends the update's JSON object to `out`, the fix under "fix" (null without one).
    public func appendJSON(to out: inout [UInt8]) {
        if !text.written { text.write(report, fix: fix) }
        text.append(to: &out)
    }
}
