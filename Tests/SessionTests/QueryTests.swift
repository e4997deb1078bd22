import Foundation
import JSON
import Platform
@testable import Session
import Testing
import TestSupport

/// The one-shot queries in process: the WMM and geodesic batches against the reference data sets,
/// their bad lines, and single problems.
@Suite("declination and geodesic queries")
struct QueryTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// Runs a batch over `input` as its standard input; returns what it wrote.
    func batch(_ input: String, _ run: (Int32, Runtime) throws -> ExitCode) throws -> String {
        let result = try SessionHarness("batch").run("batch", stdin: input) { try run($0.input, $0) }
        if let error = result.error { throw error }
        #expect(result.status == .success)
        return result.stdout
    }

    /// The error a batch stops with, or nil when it succeeds.
    func batchError(_ input: String, _ run: (Int32, Runtime) throws -> ExitCode) -> (any UserFacingError)? {
        do {
            _ = try batch(input, run)
            return nil
        } catch let error as any UserFacingError {
            return error
        } catch {
            return nil
        }
    }

    /// A bad line in the declination batch is named by its number, exit 65. (NOAA's 100 test points
    /// through the batch: DeclinationBatchInProcessTests.)
    @Test func badBatchLinesNameTheLineAndExit65() throws {
        for (input, fragment) in [("2025,91,0,0\n", "line 1"), ("2025,10,0,0\n2025,abc,0,0\n", "line 2"),
                                  ("2025,10,0\n", "line 1"), ("2025,nan,0,0\n", "line 1"), ("2025,10,,0\n", "missing")] {
            let error = try #require(batchError(input) { try DeclinationBatch.run(allowExtrapolation: false, input: $0, runtime: $1) },
                                     "\(input) was accepted")
            #expect(error.exitCode == .dataError, "\(input)")
            #expect(error.message.contains(fragment), "\(input): \(error.message)")
        }
    }

    @Test func outsideTheModelYearsNeedsAllowExtrapolation() throws {
        let h = try SessionHarness("declination-2031")
        #expect(throws: ModelError.self) { try DeclinationQuery(latitude: 1, longitude: 0, year: 2031).run(runtime: h.runtime("declination")) }
        do {
            _ = try DeclinationQuery(latitude: 1, longitude: 0, year: 2031).run(runtime: h.runtime("declination"))
        } catch let error as ModelError {
            #expect(error.exitCode == .usage)
            #expect(error.message.contains("--allow-extrapolation") || error.message.contains("allowExtrapolation"), "\(error.message)")
        }
        let allowed = try SessionHarness("declination-2031-allowed")
        #expect(try DeclinationQuery(latitude: 1, longitude: 0, year: 2031, allowExtrapolation: true)
            .run(runtime: allowed.runtime("declination")) == .success)
        #expect(allowed.diagnostics.text.contains("warning"))
        #expect(allowed.output.text.contains("Declination"))
    }

    /// The direct problem from the inverse's distance and azimuth lands on the second point. (Karney's
    /// test set through the batch: GeodBatchInProcessTests.)
    @Test func directRoundTripsTheInverse() throws {
        let h = try SessionHarness("geod-direct")
        _ = try GeodesicQuery(inverse: true, numbers: [-33.8694, 151.1990, -37.8136, 144.9631], json: true).run(runtime: h.runtime("geod"))
        let o = try JSONValue.parse(h.output.lines[0])
        let s = try #require(o["distance_m"]?.double), az = try #require(o["azimuth1_deg"]?.double)
        let d = try SessionHarness("geod-direct-2")
        _ = try GeodesicQuery(inverse: false, numbers: [-33.8694, 151.1990, az, s], json: true).run(runtime: d.runtime("geod"))
        let p = try JSONValue.parse(d.output.lines[0])
        #expect(abs((p["lat2_deg"]?.double ?? 0) - -37.8136) < 1e-9)
        #expect(abs((p["lon2_deg"]?.double ?? 0) - 144.9631) < 1e-9)
        #expect(abs((p["azimuth2_deg"]?.double ?? -1) - (o["azimuth2_deg"]?.double ?? -2)) < 1e-9)
    }

    @Test func badGeodesicLinesNameTheLineAndExit65() throws {
        for (input, fragment) in [("0,0,91,1\n", "line 1"), ("0,0,1,1\n0,x,1,1\n", "line 2"), ("0,0,1\n", "expected 4 fields"), ("0,0,nan,1\n", "line 1")] {
            let error = try #require(batchError(input) { try GeodBatch.run(inverse: true, input: $0, runtime: $1) }, "\(input)")
            #expect(error.exitCode == .dataError, "\(input)")
            #expect(error.message.contains(fragment), "\(error.message)")
        }
        let h = try SessionHarness("geod-bad")
        #expect(throws: InvalidRequest.self) { try GeodesicQuery(inverse: true, numbers: [95, 0, 0, 0]).run(runtime: h.runtime("geod")) }
        #expect(throws: InvalidRequest.self) { try GeodesicQuery(inverse: true, numbers: [1, 2, 3]).run(runtime: h.runtime("geod")) }
    }

    @Test("longitudes beyond ±540° and distances beyond 1,000,000 km are refused, as latitudes beyond ±90° are")
    func absurdInput() throws {
        let h = try SessionHarness("geod-absurd")
        #expect(throws: InvalidRequest.self) { try GeodesicQuery(inverse: true, numbers: [0, 541, 1, 1]).run(runtime: h.runtime("geod")) }
        #expect(throws: InvalidRequest.self) { try GeodesicQuery(inverse: true, numbers: [0, 0, 1, -1e300]).run(runtime: h.runtime("geod")) }
        #expect(throws: InvalidRequest.self) { try GeodesicQuery(inverse: false, numbers: [0, 0, 90, 2e9]).run(runtime: h.runtime("geod")) }
        // Normalised longitudes within ±540° are fine: 400° is 40°.
        #expect(try GeodesicQuery(inverse: true, numbers: [0, 400, 1, 40]).run(runtime: h.runtime("geod")) == .success)
        let error = try #require(batchError("0,0,1,1e300\n") { try GeodBatch.run(inverse: false, input: $0, runtime: $1) })
        #expect(error.exitCode == .dataError)
        #expect(error.message.contains("line 1") && error.message.contains("1,000,000 km"), "\(error.message)")
    }
}
