import Linear
import Platform

/// An identification made from identity registers.
struct Identification {
    var chip: DetectedChip
    var confidence: DetectionConfidence
    var evidence: String
}

/// How to recognise one part from its registers (sensors.md has the table and its sources).
struct ChipSignature: Sendable {
    /// The addresses the part can be strapped to. Elsewhere a match counts one step less sure.
    let addresses: [I2CAddress]
    /// The first identity register read: also the presence check at the part's own addresses.
    let register: UInt8
    /// Reads the identity; the flag is true at the part's own addresses, the only place where a
    /// signature may write (a power-on, a data read) to make sure.
    let identify: @Sendable (AddressProbe, Bool) -> Identification?

    init(_ addresses: [I2CAddress], register: UInt8,
         _ identify: @escaping @Sendable (AddressProbe, Bool) -> Identification?) {
        self.addresses = addresses
        self.register = register
        self.identify = identify
    }
}

extension ChipSignature {
    /// Every signature, most distinctive first within an address.
    static let all: [ChipSignature] = [
        qmc5883l, hmc5883l, lis3mdl, lis2mdl, mmc5983ma, bmm150, ak09916,
        icm20948, mpuFamily, lsm303agrAccelerometer, lis3dh, adxl345, mma845x, stAccelGyro, bno055, cmps14, boardCompanions,
    ]

    static let qmc5883l = ChipSignature([0x0D], register: 0x0D) { p, mayWrite in
        // 0xFF alone is what a floating bus reads, so it needs reg 0x0c and a sane data read beside it.
        guard let id = p.read(0x0D), p.read(0x0C) == QMC5883L.revisionValue else { return nil }
        if id != QMC5883L.chipIDValue {
            // Revision 1.0 left 0x0d reserved: Linux only warns. Without 0xff the data read must confirm it.
            guard mayWrite, case .success(let microtesla) = qmc5883lDataCheck(p) else { return nil }
            return Identification(chip: .magnetometer(.qmc5883l), confidence: .medium,
                                  evidence: "reg 0x0c = 0x01, " + regText(0x0D, id)
                                      + " (not 0xff: a revision 1.0 QMC5883L, where 0x0d was reserved)"
                                      + "; data read \(fixed(microtesla, 1)) µT")
        }
        var result = Identification(chip: .magnetometer(.qmc5883l), confidence: .medium,
                                    evidence: "reg 0x0d = 0xff (QMC5883L chip id, weak alone), reg 0x0c = 0x01")
        guard mayWrite else { return result }
        switch qmc5883lDataCheck(p) {
        case .success(let microtesla):
            result.confidence = .high
            result.evidence += "; data read \(fixed(microtesla, 1)) µT"
        case .failure(let reason):
            result.evidence += "; \(reason.text)"
        }
        return result
    }

    static let hmc5883l = ChipSignature([0x1E], register: 0x0A) { p, _ in
        guard p.read(0x0A) == 0x48, p.read(0x0B) == 0x34, p.read(0x0C) == 0x33 else { return nil }
        return Identification(chip: .magnetometer(.hmc5883l), confidence: .high,
                              evidence: "regs 0x0a–0x0c = \"H43\" (HMC5883L identification)")
    }

    static let lis3mdl = ChipSignature([0x1C, 0x1E], register: 0x0F) { p, _ in
        guard p.read(0x0F) == 0x3D else { return nil }
        return Identification(chip: .magnetometer(.lis3mdl), confidence: .high,
                              evidence: "reg 0x0f = 0x3d (LIS3MDL WHO_AM_I; an LSM9DS1 magnetometer reads the same)")
    }

    static let lis2mdl = ChipSignature([0x1E], register: 0x4F) { p, _ in
        guard p.read(0x4F) == 0x40 else { return nil }
        return Identification(chip: .magnetometer(.lis2mdl), confidence: .high,
                              evidence: "reg 0x4f = 0x40 (LIS2MDL WHO_AM_I, also the LSM303AGR magnetometer)")
    }

    static let mmc5983ma = ChipSignature([0x30], register: 0x2F) { p, _ in
        switch p.read(0x2F) {
        case 0x30:
            return Identification(chip: .magnetometer(.mmc5983ma), confidence: .high,
                                  evidence: "reg 0x2f = 0x30 (MMC5983MA product id)")
        case 0x0C:
            return Identification(chip: .unsupported("MMC5883MA"), confidence: .medium,
                                  evidence: "reg 0x2f = 0x0c (MMC5883MA product id)")
        default:
            return nil
        }
    }

    static let bmm150 = ChipSignature([0x10, 0x11, 0x12, 0x13], register: 0x40) { p, mayWrite in
        if p.read(0x40) == 0x32 {
            return Identification(chip: .magnetometer(.bmm150), confidence: .high,
                                  evidence: "reg 0x40 = 0x32 (BMM150 chip id)")
        }
        // In suspend mode the chip id reads 0x00: power on (reg 0x4b bit 0), look again, then restore.
        guard mayWrite, p.read(0x40) == 0x00, p.read(0x4B) == 0x00, p.write(0x4B, 0x01) else { return nil }
        p.sleep(0.003)
        let id = try? p.readFresh(0x40).get()
        p.write(0x4B, 0x00)
        guard id == 0x32 else { return nil }
        return Identification(chip: .magnetometer(.bmm150), confidence: .high,
                              evidence: "reg 0x40 = 0x32 after power-on via reg 0x4b (BMM150 chip id)")
    }

    static let ak09916 = ChipSignature([0x0C], register: 0x01) { p, _ in
        let company = p.read(0x00), device = p.read(0x01)
        if device == 0x09 {
            return Identification(chip: .magnetometer(.ak09916), confidence: company == 0x48 ? .high : .medium,
                                  evidence: (company == 0x48 ? "reg 0x00 = 0x48 (AKM), " : "")
                                      + "reg 0x01 = 0x09 (AK09916 WIA2)")
        }
        guard company == 0x48, let device else { return nil }
        let names: [UInt8: String] = [0x04: "AK09912", 0x05: "AK09911", 0x0C: "AK09918"]
        if let name = names[device] {
            return Identification(chip: .unsupported(name), confidence: .medium,
                                  evidence: "reg 0x00 = 0x48 (AKM), " + regText(0x01, device))
        }
        // The AK8963 has no device-id register beside WIA (0x01 is INFO); behind an MPU-9250 it is sure.
        return Identification(chip: .magnetometer(.ak8963), confidence: .medium,
                              evidence: "reg 0x00 = 0x48 (AKM WIA), reg 0x01 is not an AK099xx id: an AK8963")
    }

    static let icm20948 = ChipSignature([0x68, 0x69], register: 0x00) { p, _ in
        guard p.read(0x00) == 0xEA else { return nil }
        return Identification(chip: .accelerometer(.icm20948), confidence: .high,
                              evidence: "reg 0x00 = 0xea (ICM-20948 WHO_AM_I; its AK09916 magnetometer sits behind the I²C bypass)")
    }

    static let mpuFamily = ChipSignature([0x68, 0x69], register: 0x75) { p, _ in
        guard let id = p.read(0x75) else { return nil }
        if id == 0x68 {
            return Identification(chip: .accelerometer(.mpu6050), confidence: .high,
                                  evidence: "reg 0x75 = 0x68 (MPU-6050 WHO_AM_I)")
        }
        if id == 0x71 || id == 0x73 {
            let name = id == 0x71 ? "MPU-9250" : "MPU-9255"
            return Identification(chip: .accelerometer(.mpu9250), confidence: .high,
                                  evidence: regText(0x75, id) + " (\(name) WHO_AM_I; its AK8963 magnetometer sits behind the I²C bypass)")
        }
        let others: [UInt8: String] = [0x70: "MPU-6500"]
        guard let name = others[id] else { return nil }
        return Identification(chip: .unsupported(name), confidence: .medium,
                              evidence: regText(0x75, id) + " (\(name) WHO_AM_I)")
    }

    static let lsm303agrAccelerometer = ChipSignature([0x19], register: 0x0F) { p, _ in
        guard p.read(0x0F) == 0x33 else { return nil }
        return Identification(chip: .accelerometer(.lsm303agr), confidence: .medium,
                              evidence: "reg 0x0f = 0x33 (LSM303AGR accelerometer WHO_AM_I; a LIS3DH reads the same)")
    }

    static let lis3dh = ChipSignature([0x18], register: 0x0F) { p, _ in
        guard p.read(0x0F) == 0x33 else { return nil }
        return Identification(chip: .unsupported("LIS3DH"), confidence: .medium,
                              evidence: "reg 0x0f = 0x33 (LIS3DH WHO_AM_I) at the LIS3DH's own address")
    }

    static let adxl345 = ChipSignature([0x1D, 0x53], register: 0x00) { p, _ in
        guard p.read(0x00) == 0xE5 else { return nil }
        return Identification(chip: .unsupported("ADXL345"), confidence: .high, evidence: "reg 0x00 = 0xe5 (ADXL345 DEVID)")
    }

    static let mma845x = ChipSignature([0x1C, 0x1D], register: 0x0D) { p, _ in
        let names: [UInt8: String] = [0x1A: "MMA8451Q", 0x2A: "MMA8452Q", 0x3A: "MMA8453Q"]
        guard let id = p.read(0x0D), let name = names[id] else { return nil }
        return Identification(chip: .unsupported(name), confidence: .medium, evidence: regText(0x0D, id) + " (\(name) WHO_AM_I)")
    }

    /// ST accelerometer + gyroscope parts at 0x6a/0x6b, told apart by WHO_AM_I (0x0f).
    static let stAccelGyro = ChipSignature([0x6A, 0x6B], register: 0x0F) { p, _ in
        switch p.read(0x0F) {
        case LSM9DS1AccelGyro.identity:
            return Identification(chip: .accelerometer(.lsm9ds1), confidence: .high,
                                  evidence: "reg 0x0f = 0x68 (LSM9DS1 accelerometer/gyro WHO_AM_I)")
        case LSM6DSL.Model.lsm6dsl.identity:
            return Identification(chip: .accelerometer(.lsm6dsl), confidence: .high,
                                  evidence: "reg 0x0f = 0x6a (LSM6DSL WHO_AM_I)")
        case LSM6DSL.Model.lsm6dsox.identity:
            return Identification(chip: .accelerometer(.lsm6dsox), confidence: .high,
                                  evidence: "reg 0x0f = 0x6c (LSM6DSOX WHO_AM_I)")
        case 0x69:
            return Identification(chip: .unsupported("LSM6DS33"), confidence: .medium,
                                  evidence: "reg 0x0f = 0x69 (LSM6DS33 WHO_AM_I)")
        default:
            return nil
        }
    }

    /// BNO055: CHIP_ID 0xa0 on page 0 (at its own addresses a chip left on page 1 is switched back),
    /// with the ids of its three sensors and its calibration status as further evidence.
    static let bno055 = ChipSignature([0x28, 0x29], register: 0x00) { p, mayWrite in
        typealias R = BNO055.Register
        if p.read(R.chipID) != BNO055.identity {
            guard mayWrite, p.read(R.pageID) == 1, p.write(R.pageID, 0),
                  (try? p.readFresh(R.chipID).get()) == BNO055.identity else { return nil }
        }
        var evidence = "reg 0x00 = 0xa0 (BNO055 CHIP_ID)"
        if p.read(0x01) == 0xFB, p.read(0x02) == 0x32, p.read(0x03) == 0x0F {
            evidence += ", regs 0x01–0x03 = 0xfb 0x32 0x0f (its accelerometer, magnetometer and gyro ids)"
        }
        if let status = p.read(R.calibrationStatus) {
            evidence += "; CALIB_STAT \(BNO055.CalibrationStatus(status)) (the chip's own fusion calibration, 0–3)"
        }
        return Identification(chip: .magnetometer(.bno055), confidence: .high, evidence: evidence)
    }

    /// CMPS14/CMPS12: no identity register, so plausibility: a small software version at 0x00, a bearing
    /// 0–3599 at 0x02–0x03 that the 8-bit bearing at 0x01 agrees with, pitch and roll within ±90°.
    static let cmps14 = ChipSignature([0x60], register: 0x00) { p, _ in
        let head = (0..<6).compactMap { p.read(UInt8($0)) }
        guard head.count == 6, CMPS14.implausibility(head) == nil else { return nil }
        let bearing = Int(head[2]) << 8 | Int(head[3])
        let agrees = abs(Double(head[1]) * 3600 / 256 - Double(bearing)) <= 15   // 8-bit step is 1.4°
        var evidence = "reg 0x00 = \(hexAddress(head[0])) (CMPS14 software version), bearing \(fixed(Double(bearing) / 10, 1))°"
            + (agrees ? " (the 8-bit bearing at 0x01 agrees)" : "")
        if let calibration = p.read(CMPS14.Register.calibration) {
            evidence += "; calibration \(BNO055.CalibrationStatus(calibration))"
        }
        return Identification(chip: .magnetometer(.cmps14), confidence: agrees ? .high : .low, evidence: evidence)
    }

    /// Chips that say which board an IMU sits on (none is read): the Sense HAT's HTS221 (0x5f) and
    /// LPS25H (0x5c), and the BMP280 (0x76/0x77) that BerryIMU v2 and v3 carry.
    static let boardCompanions = ChipSignature([0x5C, 0x5F, 0x76, 0x77], register: 0x0F) { p, _ in
        switch (p.address, p.read(0x0F)) {
        case (0x5F, 0xBC):
            return Identification(chip: .unsupported("HTS221"), confidence: .high,
                                  evidence: "reg 0x0f = 0xbc (HTS221 WHO_AM_I: the Sense HAT's humidity sensor)")
        case (0x5C, 0xBD):
            return Identification(chip: .unsupported("LPS25H"), confidence: .high,
                                  evidence: "reg 0x0f = 0xbd (LPS25H WHO_AM_I: the Sense HAT's pressure sensor)")
        case (0x76, _), (0x77, _):
            guard p.read(0xD0) == 0x58 else { return nil }
            return Identification(chip: .unsupported("BMP280"), confidence: .high,
                                  evidence: "reg 0xd0 = 0x58 (BMP280 chip id: a pressure sensor, as on the BerryIMU)")
        default:
            return nil
        }
    }
}
