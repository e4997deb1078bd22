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
    public static func open(_ chip: ChipKind, bus: any I2CBus, address: I2CAddress? = nil,
                            now: @escaping @Sendable () -> Double = { Clock.monotonic() },
                            sleep: @escaping @Sendable (Double) -> Void = { Clock.sleep(seconds: $0) }) throws(SensorError)
        -> any Magnetometer {
        let address = address ?? defaultAddress(for: chip)
        switch chip {
        case .qmc5883l: return try QMC5883L(bus: bus, address: address)
        case .hmc5883l: return try HMC5883L(bus: bus, address: address, now: now)
        case .lis3mdl: return try LIS3MDL(bus: bus, address: address)
        case .lis2mdl: return try LIS2MDL(bus: bus, address: address)
        case .mmc5983ma: return try MMC5983MA(bus: bus, address: address)
        case .bmm150: return try BMM150(bus: bus, address: address)
        case .ak09916: return try AK09916(bus: bus, address: address)
        case .lsm9ds1: return try LIS3MDL(bus: bus, address: address, model: .lsm9ds1)
        case .ak8963: return try AK8963(bus: bus, address: address)
        case .bno055: return try BNO055(bus: bus, address: address, now: now, sleep: sleep)
        case .cmps14: return try CMPS14(bus: bus, address: address, now: now)
        }
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
