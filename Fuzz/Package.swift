// swift-tools-version:6.0
//
// libFuzzer targets for Lodestone's readers of outside input: a separate package so that the main
// build is unaffected. Built and run by `make fuzz` (see README.md, "Fuzzing"):
//   swift build -c release -Xswiftc -sanitize=fuzzer
// Each target is an executable whose main.swift hands its LLVMFuzzerTestOneInput to libFuzzer's
// driver (SwiftPM renames an executable's main, so libFuzzer's own main cannot be used). Checks inside a target (`require`) end the run with a crash, which libFuzzer reports as a
// finding and saves the input.
import PackageDescription

let fuzzed: [Target.Dependency] = [.product(name: "LodestoneFuzzing", package: "lodestone"), "FuzzSupport"]

let package = Package(
    name: "lodestone-fuzz",
    dependencies: [.package(name: "lodestone", path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzer"]),
        // Calibration and heading recordings (calibrate/heading --from-file).
        .executableTarget(name: "fuzz-recording", dependencies: fuzzed, path: "Sources/FuzzRecording"),
        // Lodestone's CSV log as analyze reads it, and the chunked line reader under it.
        .executableTarget(name: "fuzz-log-reader", dependencies: fuzzed, path: "Sources/FuzzLogReader"),
        // The calibration profile file and single profile documents (JSON).
        .executableTarget(name: "fuzz-profile", dependencies: fuzzed, path: "Sources/FuzzProfile"),
        // gpsd's JSON reports and the epoch merger they feed.
        .executableTarget(name: "fuzz-gpsd", dependencies: fuzzed, path: "Sources/FuzzGpsd"),
        // The NMEA 0183 writer: every sentence it makes parses back to the values it was given.
        .executableTarget(name: "fuzz-nmea", dependencies: fuzzed, path: "Sources/FuzzNMEA"),
    ]
)
