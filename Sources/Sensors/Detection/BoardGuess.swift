/// Which board a set of detected chips probably is: the chips and addresses the common Raspberry Pi
/// boards carry (hardware/README.md lists them). A guess, never used to choose a driver.
///
/// ```swift
/// let boards = ScanReport(buses: [1], devices: Detector().scan(bus)).probableBoards
/// // ["Sense HAT or BerryIMU v2 (LSM9DS1 at 0x1c and 0x6a)"]
/// ```
extension ScanReport {
    /// One line per board recognised on any bus, in bus then address order.
    public var probableBoards: [String] {
        var boards: [String] = []
        for bus in Set(devices.map(\.bus)).sorted() {
            let rows = devices.filter { $0.bus == bus }
            func row(_ chip: DetectedChip) -> DetectedDevice? { rows.first { $0.chip == chip } }
            if let mag = row(.magnetometer(.lsm9ds1)), let imu = row(.accelerometer(.lsm9ds1)) {
                let pair = "LSM9DS1 at \(hexAddress(mag.address)) and \(hexAddress(imu.address))"
                if row(.unsupported("HTS221")) != nil || row(.unsupported("LPS25H")) != nil {
                    boards.append("Sense HAT (\(pair), with its HTS221/LPS25H)")
                } else if row(.unsupported("BMP280")) != nil {
                    boards.append("BerryIMU v2 (\(pair), with its BMP280)")
                } else {
                    boards.append("Sense HAT or BerryIMU v2 (\(pair))")
                }
            }
            if let mag = row(.magnetometer(.lis3mdl)),
               let imu = row(.accelerometer(.lsm6dsl)) ?? row(.accelerometer(.lsm6dsox)) {
                boards.append("BerryIMU v3 (\(imu.chip.name) at \(hexAddress(imu.address)), LIS3MDL at \(hexAddress(mag.address)))")
            }
            if let chip = row(.magnetometer(.bno055)) {
                boards.append("BNO055 breakout such as Adafruit 2472 (at \(hexAddress(chip.address)); read raw, in AMG mode)")
            }
            if let chip = row(.magnetometer(.cmps14)) {
                boards.append("CMPS14 or CMPS12 compass module (at \(hexAddress(chip.address)); its raw magnetometer is read)")
            }
            if let mag = row(.magnetometer(.qmc5883l)) {
                boards.append("GY-271 (QMC5883L at \(hexAddress(mag.address)), often sold as HMC5883L)")
            }
            if let mag = row(.magnetometer(.hmc5883l)) {
                boards.append("GY-271, older version (HMC5883L at \(hexAddress(mag.address)))")
            }
            if let imu = row(.accelerometer(.mpu6050)) {
                boards.append("GY-521 (MPU-6050 at \(hexAddress(imu.address)))")
            }
            if let imu = row(.accelerometer(.icm20948)) {
                boards.append("ICM-20948 breakout (at \(hexAddress(imu.address)), AK09916 magnetometer behind it)")
            }
            if let imu = row(.accelerometer(.mpu9250)) {
                boards.append("GY-9250 or another MPU-9250/MPU-9255 board (at \(hexAddress(imu.address)), AK8963 magnetometer behind it)")
            }
            if row(.magnetometer(.lis2mdl)) != nil, let imu = row(.accelerometer(.lsm303agr)) {
                boards.append("LSM303AGR board (accelerometer at \(hexAddress(imu.address)), LIS2MDL at 0x1e)")
            }
        }
        return boards
    }
}
