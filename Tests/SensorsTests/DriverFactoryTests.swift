import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("Driver factory on the simulated rig")
struct DriverFactoryTests {
    private func rig(_ chip: ChipKind, noise: Double?, clock: ManualClock) -> SimulatedRig {
        let setup = SimulationSetup(scenario: .fixed(Attitude(roll: 4, pitch: -3, yaw: 37)), model: .typicalBoard,
                                    noise: noise, seed: 11, chip: chip)
        return SimulatedRig(setup: setup, now: { clock.now() })
    }

    @Test(arguments: ChipKind.allCases)
    func opensEveryChipAndReadsTheTrueField(chip: ChipKind) throws {
        let clock = ManualClock(100)
        let rig = rig(chip, noise: 0, clock: clock)
        #expect(rig.address == DriverFactory.defaultAddress(for: chip))
        let driver = try DriverFactory.open(chip, bus: rig.bus, address: rig.address, now: { clock.now() })
        #expect(driver.info.chip == chip)
        #expect(driver.info.address == rig.address)
        let truth = rig.setup.chipField(atScenarioTime: 0)
        let field = try DriverTestKit.poll(driver, clock: clock, step: 0.005)
        #expect(DriverTestKit.close(field, truth, 0.4), "\(chip): \(String(describing: field)) vs \(truth)")
    }

    @Test(arguments: ChipKind.allCases)
    func noiseMatchesWhatTheDriverReports(chip: ChipKind) throws {
        let clock = ManualClock()
        let rig = rig(chip, noise: nil, clock: clock)
        let driver = try DriverFactory.open(chip, bus: rig.bus, address: rig.address, now: { clock.now() })
        let samples = try DriverTestKit.samples(driver, clock: clock, count: 300)
        #expect(samples.count == 300)
        let measured = DriverTestKit.noise(samples)
        #expect(measured > 0.6 * driver.info.noise && measured < 1.6 * driver.info.noise,
                "\(chip): measured \(measured) µT, driver reports \(driver.info.noise) µT")
    }

    @Test func forcedFieldThroughTheRigOverflowsEveryChip() throws {
        for chip in ChipKind.allCases {
            let clock = ManualClock()
            let rig = rig(chip, noise: 0, clock: clock)
            let driver = try DriverFactory.open(chip, bus: rig.bus, address: rig.address, now: { clock.now() })
            rig.emulator.forcedField = Vector3(0, 0, 6000)   // 60 G: beyond every chip's range
            #expect(throws: SensorError.overflow(chip)) { _ = try DriverTestKit.poll(driver, clock: clock) }
        }
    }

    @Test func addressesListTheStrapOptions() {
        #expect(DriverFactory.addresses(for: .lis3mdl) == [0x1C, 0x1E])
        #expect(DriverFactory.addresses(for: .bmm150) == [0x10, 0x11, 0x12, 0x13])
        #expect(DriverFactory.addresses(for: .qmc5883l) == [0x0D])
        #expect(DriverFactory.defaultAddress(for: .ak09916) == 0x0C)
        #expect(SimulationSetup().chip == .qmc5883l)
    }
}
