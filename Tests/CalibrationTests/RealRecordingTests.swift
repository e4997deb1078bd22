import Testing
import Foundation
import Linear
@testable import Calibration

@Suite("The real recording (acc_mag_log.csv)")
struct RealRecordingTests {
    @Test func fitBringsSpreadUnderTheAlgebraicFigure() throws {
        let rows = try RealRecording.load()
        #expect(rows.count == 12_000)
        let mags = rows.map(\.mag)
        let result = try CalibrationSolver().solve(mags).get()
        let before = spreadPercent(mags)
        let after = spreadPercent(mags.map(result.fit.apply))
        print("real recording: spread of |B| \(before) % -> \(after) % over all samples; "
              + "fit set \(result.metrics.spreadBeforePercent) % -> \(result.metrics.spreadAfterPercent) %, "
              + "model \(result.fit.model), field \(result.fit.fieldStrength) G, distinct \(result.distinctCount), "
              + "rejected \(result.rejectedCount)")
        #expect(before > 30 && before < 34)
        #expect(after <= 1.27)
        #expect(result.fit.model == .full)
        #expect(result.metrics.coveragePercent >= 90)
        #expect(result.passed)
        // Field strength in gauss: a plausible Earth field (0.25–0.65 G).
        #expect(result.fit.fieldStrength > 0.25 && result.fit.fieldStrength < 0.65)
    }

    @Test func accelerometerColumnsAreStillPlausible() throws {
        // The same recording's accelerometer magnitude stays near 1 g: the columns are read right.
        let rows = try RealRecording.load()
        let mean = rows.map(\.acc.norm).reduce(0, +) / Double(rows.count)
        #expect(abs(mean - 1) < 0.1)
    }
}
