import Platform
@testable import Session
import Sensors
import Testing
import TestSupport

/// `serve` and `log` read the chip only as fast as they update (at least 50 Hz), never faster than
/// the chip's default; `watch` keeps the default.
@Suite("the chip's rate follows the service's")
struct ServiceSampleRateTests {
    func chipRate(_ selection: SensorSelection, forUpdateRate rate: Double?) throws -> Double {
        let h = try SessionHarness("sample-rate")
        let runtime = h.runtime("serve")
        var request = LiveRequest(sensors: selection, gnss: .none)
        if let rate { request = request.sampled(forUpdateRate: rate) }
        let live = try LiveSession.open(request, runtime: runtime, inbox: ControlInbox(runtime.events))
        return live.reader.magnetometer.info.outputRate
    }

    @Test("QMC5883L: 50 Hz for serve at 10 or 50 Hz, 100 Hz for log at 100 Hz, its default 200 Hz beyond and for watch")
    func qmc5883l() throws {
        let qmc = SensorSelection(simulate: true)
        #expect(try chipRate(qmc, forUpdateRate: 10) == 50)
        #expect(try chipRate(qmc, forUpdateRate: 50) == 50)
        #expect(try chipRate(qmc, forUpdateRate: 100) == 100)
        #expect(try chipRate(qmc, forUpdateRate: 150) == 200)
        #expect(try chipRate(qmc, forUpdateRate: 1000) == 200, "never faster than the default")
        #expect(try chipRate(qmc, forUpdateRate: nil) == 200, "watch: the default")
    }

    @Test("LIS2MDL and AK09916 slow to 50 Hz; a chip without the choice (HMC5883L) keeps its rate")
    func otherChips() throws {
        #expect(try chipRate(SensorSelection(simulate: true, sensor: .lis2mdl), forUpdateRate: 20) == 50)
        #expect(try chipRate(SensorSelection(simulate: true, sensor: .ak09916), forUpdateRate: 20) == 50)
        #expect(try chipRate(SensorSelection(simulate: true, sensor: .hmc5883l), forUpdateRate: 20) == 75)
    }

    @Test("a rate the selection already names is kept")
    func explicitRate() {
        var selection = SensorSelection(simulate: true)
        selection.outputRate = 200
        #expect(LiveRequest(sensors: selection).sampled(forUpdateRate: 10).sensors.outputRate == 200)
        #expect(LiveRequest(sensors: SensorSelection(simulate: true)).sampled(forUpdateRate: 10).sensors.outputRate == 50)
    }

    @Test("serve at 50 Hz on a 50 Hz chip publishes every slot for 10 s")
    func serveEverySlot() throws {
        let h = try SessionHarness("sample-rate-serve")
        let path = h.path("s.jsonl")
        let request = ServeRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none), rate: 50,
                                   duration: 10, json: [path])
        let summary = try ServeSession.run(request, runtime: h.runtime("serve"), sockets: FakeSockets(clock: h.clock))
        #expect((495...501).contains(summary.updates), "50 Hz for 10 s: \(summary.updates)")
        #expect(summary.samples <= 505, "the chip read at 50 Hz: \(summary.samples) samples")
    }
}
