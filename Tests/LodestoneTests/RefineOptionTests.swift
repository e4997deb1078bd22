import Options
import Session
import Simulation
import Testing
@testable import lodestone

/// `--refine` and `--sim-step-ut` as the option groups read them.
@Suite("--refine and --sim-step-ut")
struct RefineOptionTests {
    @Test func refineIsAHeadingOptionOfEveryCommandThatMakesHeadings() throws {
        for name in ["watch", "log", "serve", "heading"] {
            let command = try #require(Dispatcher.find(name))
            #expect(command.spec.options.contains { $0.name == "refine" }, "\(name)")
        }
        let spec = CommandSpec(name: "t", abstract: "", options: HeadingOptions.options)
        #expect(try HeadingOptions(try parseArguments(["--refine"], spec: spec)).settings.refine)
        #expect(try !HeadingOptions(try parseArguments([], spec: spec)).settings.refine)
    }

    @Test func aSimulatedStepIsRead() throws {
        let spec = CommandSpec(name: "t", abstract: "", options: SensorOptions.options)
        let parsed = try parseArguments(["--simulate", "--scenario", "boat", "--sim-step-ut", "6,-5,3@60"], spec: spec)
        let selection = try SensorOptions(parsed).selection
        #expect(selection.fieldChanges == [FieldChange(x: 6, y: -5, z: 3, start: 60)])
        let setup = selection.simulationSetup(wall: 1_767_225_600)
        #expect(setup.fieldChanges.count == 1)
        // The step is there after 60 s and not before.
        var without = setup
        without.fieldChanges = []
        #expect(setup.chipField(atScenarioTime: 70) != without.chipField(atScenarioTime: 70))
        #expect(setup.chipField(atScenarioTime: 50) == without.chipField(atScenarioTime: 50))
    }

    @Test("refused with a usage error", arguments: [
        ["--sim-step-ut", "6,-5,3@60"],
        ["--simulate", "--sim-step-ut", "6,-5@60"],
        ["--simulate", "--sim-step-ut", "6,-5,3"],
        ["--simulate", "--sim-step-ut", "6,-5,3@-1"],
        ["--simulate", "--sim-step-ut", "nan,0,0@1"],
        ["--simulate", "--sim-step-ut", "1e9,0,0@1"],
    ])
    func refused(arguments: [String]) throws {
        let spec = CommandSpec(name: "t", abstract: "", options: SensorOptions.options)
        #expect(throws: UsageError.self) { _ = try SensorOptions(try parseArguments(arguments, spec: spec)) }
    }
}
