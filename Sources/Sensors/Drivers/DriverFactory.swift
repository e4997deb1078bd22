import Platform

/// Opens the driver for a magnetometer chip, and knows each chip's addresses.
///
/// ```swift
/// let chip = try DriverFactory.open(.lis3mdl, bus: bus)              // default address 0x1c
/// let other = try DriverFactory.open(.bmm150, bus: bus, address: 0x13)
/// ```
public enum DriverFactory {
    /// Probes and configures `chip` at `address` (the chip's default address when nil), with each
    /// driver's default rate and range. `now` (monotonic seconds) is the clock drivers that need one use.
    /// `sleep` waits out a chip's mode switches (the BNO055's); the simulator's chips switch at once.
    /// `outputRate` (Hz) asks for a slower chip than the default: the lowest output rate the chip
    /// offers at or above it, never faster than the driver's default (QMC5883L, LIS2MDL, AK09916;
    /// the other chips keep theirs). Why: the reader polls once per chip sample, and on a service
    /// that publishes at 50 Hz a 200 Hz chip cost four wake-ups and I²C reads per update.
    public static func open(_ chip: ChipKind, bus: any I2CBus, address: I2CAddress? = nil, outputRate: Double? = nil,
                            now: @escaping @Sendable () -> Double = { Clock.monotonic() },
                            sleep: @escaping @Sendable (Double) -> Void = { Clock.sleep(seconds: $0) }) throws(SensorError)
        -> any Magnetometer {
        let address = address ?? defaultAddress(for: chip)
        switch chip {
        case .qmc5883l:
            return try QMC5883L(bus: bus, address: address, rate: slowest(atLeast: outputRate, default: .hz200, hertz: \.hertz))
        case .lis2mdl:
            return try LIS2MDL(bus: bus, address: address, rate: slowest(atLeast: outputRate, default: .hz100, hertz: \.hertz))
        case .ak09916:
            return try AK09916(bus: bus, address: address, rate: slowest(atLeast: outputRate, default: .hz100, hertz: \.hertz))
        case .hmc5883l: return try HMC5883L(bus: bus, address: address, now: now)
        case .lis3mdl: return try LIS3MDL(bus: bus, address: address)
        case .mmc5983ma: return try MMC5983MA(bus: bus, address: address)
        case .bmm150: return try BMM150(bus: bus, address: address)
        case .lsm9ds1: return try LIS3MDL(bus: bus, address: address, model: .lsm9ds1)
        case .ak8963: return try AK8963(bus: bus, address: address)
        case .bno055: return try BNO055(bus: bus, address: address, now: now, sleep: sleep)
        case .cmps14: return try CMPS14(bus: bus, address: address, now: now)
        }
    }

    /// The slowest of a chip's rates at or above `wanted` Hz and no faster than `fallback`;
    /// `fallback` when `wanted` is nil or none fits.
    static func slowest<Rate: CaseIterable>(atLeast wanted: Double?, default fallback: Rate,
                                            hertz: (Rate) -> Double) -> Rate {
        guard let wanted, wanted.isFinite else { return fallback }
        let limit = hertz(fallback)
        return Rate.allCases.filter { hertz($0) >= wanted && hertz($0) <= limit }.min { hertz($0) < hertz($1) } ?? fallback
    }

    /// The address a chip answers at on most boards.
    public static func defaultAddress(for chip: ChipKind) -> I2CAddress {
        switch chip {
        case .qmc5883l: return QMC5883L.defaultAddress
        case .hmc5883l: return HMC5883L.defaultAddress
        case .lis3mdl: return LIS3MDL.defaultAddress
        case .lis2mdl: return LIS2MDL.defaultAddress
        case .mmc5983ma: return MMC5983MA.defaultAddress
        case .bmm150: return BMM150.defaultAddress
        case .ak09916: return AK09916.defaultAddress
        case .lsm9ds1: return LIS3MDL.defaultAddress
        case .ak8963: return AK8963.defaultAddress
        case .bno055: return BNO055.defaultAddress
        case .cmps14: return CMPS14.defaultAddress
        }
    }

    /// Every address a chip can be strapped to, default first.
    public static func addresses(for chip: ChipKind) -> [I2CAddress] {
        switch chip {
        case .lis3mdl, .lsm9ds1: return [LIS3MDL.defaultAddress, LIS3MDL.alternateAddress]
        case .bmm150: return BMM150.addresses
        case .bno055: return [BNO055.defaultAddress, BNO055.alternateAddress]
        default: return [defaultAddress(for: chip)]
        }
    }
}
