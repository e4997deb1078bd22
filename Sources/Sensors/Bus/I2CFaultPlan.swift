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
    private var garbleRemaining = 0
    private var garble: Garble?
    /// The clock used for `vanish(until:)`; set by the owner of the simulation.
    public var now: @Sendable () -> Double = { 0 }

    public init() {}

    /// The next `count` transactions fail with a NAK (errno 121).
    public mutating func nakBurst(count: Int) { nakRemaining = count }

    /// The next `count` transactions time out.
    public mutating func timeouts(count: Int) { timeoutRemaining = count }

    /// The device stops answering until the clock reaches `time` (seconds on `now`).
    public mutating func vanish(address: I2CAddress, until time: Double) { vanished[address] = time }

    /// How a garbled read's bytes are changed.
    public enum Garble: Sendable, Equatable {
        /// Every byte reads this (0xFF: SDA held high; 0x7F: words near the positive rail).
        case fill(UInt8)
        /// One bit of every byte of the read flips, chosen from `seed`.
        case bitFlips(seed: UInt64)
    }

    /// The next `count` multi-byte reads (a sample's data, not a status register) return garbage.
    public mutating func garbleReads(count: Int, _ garble: Garble) {
        garbleRemaining = count
        self.garble = garble
    }

    /// True when a garble is pending (`apply(to:)` has something to do).
    var garbles: Bool { garbleRemaining > 0 }

    /// The bytes of a read, garbled when a garble is pending and the read is a multi-byte one.
    mutating func apply(to bytes: [UInt8]) -> [UInt8] {
        guard garbleRemaining > 0, bytes.count >= 6, let garble else { return bytes }
        garbleRemaining -= 1
        switch garble {
        case .fill(let value):
            return [UInt8](repeating: value, count: bytes.count)
        case .bitFlips(let seed):
            var state = seed &+ UInt64(garbleRemaining) &* 0x9E37_79B9_7F4A_7C15
            self.garble = .bitFlips(seed: seed &+ 1)
            return bytes.map { b in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return b ^ (1 << UInt8((state >> 61) & 7))
            }
        }
    }

    /// Clears every fault.
    public mutating func clear() { self = I2CFaultPlan(now: now) }

    private init(now: @escaping @Sendable () -> Double) { self.now = now }

    /// True when a transaction may fail (`nextError` has something to look at).
    var isArmed: Bool { nakRemaining > 0 || timeoutRemaining > 0 || !vanished.isEmpty }

    /// True when `nextError` for `address` needs the time (the device has vanished).
    func needsTime(_ address: I2CAddress) -> Bool { vanished[address] != nil }

    /// The fault the next transaction with `address` meets, if any; `now` is the time on `now()`
    /// (read by the caller, only when `needsTime` says so).
    mutating func nextError(bus: Int, address: I2CAddress, now time: Double) -> I2CError? {
        if nakRemaining > 0 {
            nakRemaining -= 1
            return .noAcknowledge(bus: bus, address: address)
        }
        if timeoutRemaining > 0 {
            timeoutRemaining -= 1
            return .timeout(bus: bus, address: address)
        }
        if let until = vanished[address] {
            if time < until { return .noAcknowledge(bus: bus, address: address) }
            vanished[address] = nil
        }
        return nil
    }
}
