/// Faults an `EmulatedI2CBus` injects, to test how drivers and readers survive a hobby I²C bus.
///
/// ```swift
/// bus.faults.nakBurst(count: 3)                  // the next 3 transactions are not acknowledged
/// bus.faults.vanish(address: 0x0D, until: 12.0)  // the device is gone until t = 12 s
/// ```
public struct I2CFaultPlan: Sendable {
    private var nakRemaining = 0
    private var timeoutRemaining = 0
    private var vanished: [I2CAddress: Double] = [:]
    /// The clock used for `vanish(until:)`; set by the owner of the simulation.
    public var now: @Sendable () -> Double = { 0 }

    public init() {}

    /// The next `count` transactions fail with a NAK (errno 121).
    public mutating func nakBurst(count: Int) { nakRemaining = count }

    /// The next `count` transactions time out.
    public mutating func timeouts(count: Int) { timeoutRemaining = count }

    /// The device stops answering until the clock reaches `time` (seconds on `now`).
    public mutating func vanish(address: I2CAddress, until time: Double) { vanished[address] = time }

    /// Clears every fault.
    public mutating func clear() { self = I2CFaultPlan(now: now) }

    private init(now: @escaping @Sendable () -> Double) { self.now = now }

    mutating func nextError(bus: Int, address: I2CAddress) -> I2CError? {
        if nakRemaining > 0 {
            nakRemaining -= 1
            return .noAcknowledge(bus: bus, address: address)
        }
        if timeoutRemaining > 0 {
            timeoutRemaining -= 1
            return .timeout(bus: bus, address: address)
        }
        if let until = vanished[address] {
            if now() < until { return .noAcknowledge(bus: bus, address: address) }
            vanished[address] = nil
        }
        return nil
    }
}
