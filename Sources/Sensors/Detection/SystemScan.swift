import Platform

/// The result of scanning the machine's I²C buses.
public struct ScanReport: Sendable {
    /// The bus numbers that were opened and scanned.
    public var buses: [Int]
    /// Every device that answered, by bus then address.
    public var devices: [DetectedDevice]
    /// Buses that could not be opened, with why (for a note under the table).
    public var unopened: [(bus: Int, error: I2CError)]

    public init(buses: [Int], devices: [DetectedDevice], unopened: [(bus: Int, error: I2CError)] = []) {
        self.buses = buses
        self.devices = devices
        self.unopened = unopened
    }
}

/// Scans `/dev/i2c-*` (or one bus) with a `Detector`.
///
/// ```swift
/// let report = try SystemScan().run(bus: nil)      // throws DetectionError when there is nothing
/// ```
public struct SystemScan: Sendable {
    public var detector: Detector
    /// The bus numbers present (default: the `i2c-N` entries of /dev).
    public var listBuses: @Sendable () -> [Int]
    /// Opens a bus (default: `LinuxI2CBus`).
    public var openBus: @Sendable (Int) throws(I2CError) -> any I2CBus

    public init(detector: Detector = Detector(),
                listBuses: @escaping @Sendable () -> [Int] = SystemScan.devBuses,
                openBus: @escaping @Sendable (Int) throws(I2CError) -> any I2CBus = { n throws(I2CError) in try LinuxI2CBus(number: n) }) {
        self.detector = detector
        self.listBuses = listBuses
        self.openBus = openBus
    }

    /// The N of every `/dev/i2c-N`, ascending.
    public static func devBuses() -> [Int] {
        (Files.list("/dev") ?? []).compactMap { name in name.hasPrefix("i2c-") ? Int(name.dropFirst(4)) : nil }.sorted()
    }

    /// Scans the requested bus, or every bus. Throws when there is no bus, no permission, or when
    /// nothing answered anywhere.
    public func run(bus requested: Int?) throws(DetectionError) -> ScanReport {
        let present = listBuses()
        let numbers = requested.map { [$0] } ?? present
        if numbers.isEmpty { throw .noBuses(requested: nil, present: []) }
        var report = ScanReport(buses: [], devices: [])
        for number in numbers {
            let bus: any I2CBus
            do {
                bus = try openBus(number)
            } catch {
                if case .busNotFound = error, requested != nil { throw .noBuses(requested: requested, present: present) }
                if case .notAnAdapter(let path) = error, requested != nil { throw .notAnAdapter(path: path) }
                report.unopened.append((number, error))
                continue
            }
            report.buses.append(number)
            report.devices += detector.scan(bus)
        }
        if report.buses.isEmpty {
            let denied = report.unopened.compactMap { item -> String? in
                if case .permissionDenied(let path) = item.error { return path }
                return nil
            }
            if !denied.isEmpty { throw .permission(paths: denied) }
            throw .noBuses(requested: requested, present: present)
        }
        if report.devices.isEmpty {
            throw .nothingAnswered(buses: report.buses, addresses: detector.addresses)
        }
        return report
    }
}

extension ScanReport {
    /// The magnetometer commands use when none is named: the most confident identification (medium
    /// or better), then the lowest bus and address.
    public var preferredMagnetometer: DetectedDevice? {
        Self.preferred(devices.filter { $0.magnetometer != nil })
    }

    /// The accelerometer paired with a magnetometer on `bus`: the most confident (medium or better).
    public func preferredAccelerometer(onBus bus: Int) -> DetectedDevice? {
        Self.preferred(devices.filter { $0.accelerometer != nil && $0.bus == bus })
    }

    /// The most confident accelerometer among `rows` (medium or better).
    public static func preferredAccelerometerRow(_ rows: [DetectedDevice]) -> DetectedDevice? {
        preferred(rows.filter { $0.accelerometer != nil })
    }

    static func preferred(_ rows: [DetectedDevice]) -> DetectedDevice? {
        rows.filter { $0.confidence >= .medium }.min { a, b in
            if a.confidence != b.confidence { return a.confidence > b.confidence }
            if a.bus != b.bus { return a.bus < b.bus }
            return a.address < b.address
        }
    }
}
