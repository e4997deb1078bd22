import Platform
import Foundation
import Linear
import Sensors
import Simulation

/// Keeps every distinct status the reader passes through, sampled whenever it sleeps.
final class StatusLog {
    weak var reader: MagnetometerReader?
    private(set) var statuses: [ReaderStatus] = []
    private(set) var messages: [String] = []

    func record() {
        guard let reader else { return }
        if statuses.last != reader.status {
            statuses.append(reader.status)
            if let message = reader.statusMessage { messages.append(message) }
        }
    }
}

/// A magnetometer emulator on an emulated bus, its real driver, and a `MagnetometerReader` over it,
/// all on a manual clock: every transfer costs 0.2 ms and sleeping advances the clock, so seconds of
/// faults run in milliseconds.
final class ReaderBench {
    let kind: ChipKind
    let clock = ManualClock(1000)
    let bus = EmulatedI2CBus(busNumber: 1)
    let emulator: any EmulatedMagnetometer
    let address: I2CAddress
    let chip: any Magnetometer
    let reader: MagnetometerReader
    let log = StatusLog()
    /// Times at which the driver's `readIfReady` was called.
    let recorder: RecordingMagnetometer

    init(_ kind: ChipKind, noise: Double? = nil, orientation: MountingOrientation = .componentSideUp,
         field: @escaping @Sendable (Double) -> Vector3 = turningField, policy: ReaderPolicy = ReaderPolicy()) throws {
        self.kind = kind
        let clock = self.clock
        bus.faults.now = { clock.now() }
        let physics = PhysicsSource(now: { clock.now() }, magneticField: field)
        guard let emulator = TestChips.emulator(kind, physics: physics, noise: noise) else {
            throw BenchError.noEmulator(kind)
        }
        self.emulator = emulator
        address = DriverFactory.defaultAddress(for: kind)
        bus.attach(emulator, at: address)
        let timed = TimedBus(bus, clock: clock, transactionTime: 0.0002)
        chip = try DriverFactory.open(kind, bus: timed, address: address, now: { clock.now() })
        recorder = RecordingMagnetometer(chip, clock: clock)
        let log = self.log
        let readerClock = ReaderClock(monotonic: { clock.now() }, wall: { 1.7e9 + clock.now() },
                                      sleep: { seconds in log.record(); clock.advance(by: seconds) })
        reader = MagnetometerReader(magnetometer: recorder, orientation: orientation, policy: policy, clock: readerClock)
        log.reader = reader
    }

    enum BenchError: Error { case noEmulator(ChipKind) }

    /// Reads for `seconds` of manual-clock time and returns the samples.
    func run(for seconds: Double) -> [MagnetometerSample] {
        var samples: [MagnetometerSample] = []
        let end = clock.now() + seconds
        while clock.now() < end {
            if let sample = reader.next(timeout: min(0.05, end - clock.now())) { samples.append(sample) }
            log.record()
        }
        return samples
    }

    /// Writes since trace position `start` that reached the chip's address.
    func writesToChip(since start: Int) -> Int {
        bus.trace[start...].filter { if case .write(let a, _, _) = $0 { return a == address } else { return false } }.count
    }
}

/// Wraps a driver to note when it is read.
final class RecordingMagnetometer: Magnetometer {
    let inner: any Magnetometer
    let clock: ManualClock
    private(set) var readTimes: [Double] = []
    var info: SensorInfo { inner.info }

    init(_ inner: any Magnetometer, clock: ManualClock) {
        self.inner = inner
        self.clock = clock
    }

    func configure() throws(SensorError) { try inner.configure() }

    func readIfReady() throws(SensorError) -> Vector3? {
        readTimes.append(clock.now())
        return try inner.readIfReady()
    }
}

/// A magnetometer that does whatever a test scripts, for faults no emulator makes.
final class ScriptedMagnetometer: Magnetometer {
    let info = SensorInfo(chip: .qmc5883l, bus: 1, address: 0x0D, fullScale: 800, noise: 0.2, outputRate: 100)
    var next: () throws(SensorError) -> Vector3?
    private(set) var configureCount = 0

    init(_ next: @escaping () throws(SensorError) -> Vector3?) { self.next = next }

    func configure() throws(SensorError) { configureCount += 1 }
    func readIfReady() throws(SensorError) -> Vector3? { try next() }
}
