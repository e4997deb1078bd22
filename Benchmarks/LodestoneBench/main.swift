// lodestone-bench: release benchmarks. `make bench` runs it.
// Usage: lodestone-bench [FILTER]   (runs only benchmarks whose name contains FILTER)
import Glibc
import Platform

let arguments = CommandLine.arguments.dropFirst()
// `lodestone-bench --export-scenarios DIR`: writes the simulated attitude trials for the reference filters.
if arguments.first == "--export-scenarios" {
    guard let folder = arguments.dropFirst().first else {
        StandardError().write("usage: lodestone-bench --export-scenarios DIR\n")
        exit(64)
    }
    exit(exportSimulatedTrials(to: folder) ? 0 : 74)
}
nonisolated(unsafe) let report = BenchReport(filter: arguments.first)

/// Registers and runs one benchmark (skipped when it does not match the filter).
func bench(_ name: String, iterations: Int, extra: [(String, String)] = [], _ body: (Int) -> Void) {
    guard report.shouldRun(name) else { return }
    let ns = measure(iterations: iterations, body)
    report.add(BenchResult(name: name, nsPerOp: ns, iterations: iterations, extra: extra))
}

/// Reports a figure that is not a time per operation (a simulation goal, an accuracy).
func reportFigure(_ name: String, extra: [(String, String)]) {
    guard report.shouldRun(name) else { return }
    report.add(BenchResult(name: name, nsPerOp: .nan, iterations: 0, extra: extra))
}

runSensorBenchmarks()
runGeodesyBenchmarks()
runPlacesBenchmarks()
runCalibrationBenchmarks()
runWMMBenchmarks()
runHeadingBenchmarks()
runReplayBenchmarks()
runAttitudeBenchmarks()
runPipelineBenchmarks()
runRefinementBenchmarks()
runLogBenchmarks()
runTerminalBenchmarks()
runServeBenchmarks()
runMQTTBenchmarks()
runLiveBenchmarks()
runReferenceBenchmarks()
report.printTable()
