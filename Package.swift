// swift-tools-version:6.0
//
// Lodestone: a compass and heading toolkit for Linux.
// See ARCHITECTURE.md for what each module owns and how data flows.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// Build facts for `lodestone --version`, set by the Makefile (`make build`, `make deb`); a plain
/// `swift build` says "unknown". Only text made of safe characters is taken, so a value cannot break
/// the C string it becomes. Changing them recompiles one C file and relinks.
func buildFact(_ name: String) -> String {
    let value = Context.environment[name] ?? ""
    let safe = !value.isEmpty && value.count <= 64
        && value.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || "-.:+_".unicodeScalars.contains($0) }
    return "\"" + (safe ? value : "unknown") + "\""
}

let package = Package(
    name: "lodestone",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lodestone", targets: ["lodestone"]),
        .executable(name: "lodestone-bench", targets: ["LodestoneBench"]),
        // For the fuzz targets in Fuzz/, a separate package built with -sanitize=fuzzer (`make fuzz`).
        .library(name: "LodestoneFuzzing", targets: ["Session", "HeadingLog", "Calibration", "GNSS", "Outputs", "JSON"]),
    ],
    targets: [
        // MARK: Build facts (commit and date) for --version, from the Makefile's environment
        .target(name: "BuildInfo", cSettings: [
            .define("LODESTONE_BUILD_COMMIT", to: buildFact("LODESTONE_BUILD_COMMIT")),
            .define("LODESTONE_BUILD_DATE", to: buildFact("LODESTONE_BUILD_DATE")),
        ]),

        // MARK: System libraries (the only C we call)
        .systemLibrary(name: "CI2C", path: "Sources/CI2C"),
        .systemLibrary(name: "CGPS", path: "Sources/CGPS"),
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto"),
        // The gazetteer's data (GeoNames, CC BY 4.0) compiled in as one byte array.
        .target(name: "CGazetteer", exclude: ["gazetteer.bin", "gazetteer_bounds.bin", "SOURCES.md"]),
        // accept4 and posix_spawn's closefrom, which Swift's Glibc module does not show.
        .target(name: "CPosix"),

        // MARK: Pure value and math modules (no I/O, no Foundation)
        .target(name: "Linear", swiftSettings: strict),
        .target(name: "JSON", dependencies: ["Platform"], swiftSettings: strict),
        .target(name: "Geodesy", dependencies: ["Linear"], swiftSettings: strict),
        .target(name: "Geomagnetism", dependencies: ["Linear"], exclude: ["generate_coefficients.py"], swiftSettings: strict),
        .target(name: "Calibration", dependencies: ["Linear", "JSON", "Platform"], swiftSettings: strict),
        .target(name: "Heading", dependencies: ["Linear", "Calibration", "Geomagnetism", "Attitude"], swiftSettings: strict),
        .target(name: "Attitude", dependencies: ["Linear"], swiftSettings: strict),

        // MARK: The OS edge
        .target(name: "Platform", dependencies: ["CPosix"], swiftSettings: strict),
        .target(name: "Sensors", dependencies: ["CI2C", "Linear", "Platform"], swiftSettings: strict),
        .target(name: "GNSS", dependencies: ["CGPS", "JSON", "Platform"], swiftSettings: strict),

        // MARK: Stages built on the above
        .target(name: "Navigation", dependencies: ["Geodesy", "GNSS", "Platform"], swiftSettings: strict),
        // Places: the gazetteer and its spatial index, the user's places, destinations, regions (pure).
        .target(name: "Places", dependencies: ["CGazetteer", "Geodesy", "Linear", "Platform"], swiftSettings: strict),
        .target(name: "Simulation", dependencies: ["Linear", "Platform", "Sensors", "GNSS", "Geomagnetism", "Geodesy"], swiftSettings: strict),
        .target(name: "Terminal", dependencies: ["Geodesy", "Linear", "Platform"], swiftSettings: strict),
        .target(name: "HeadingLog", dependencies: ["Linear", "Geodesy", "Platform"], swiftSettings: strict),
        .target(name: "Options", dependencies: ["Platform"], swiftSettings: strict),
        // Output formats for other software: NMEA 0183, Signal K deltas, JSON objects (pure formatting).
        .target(name: "Outputs", dependencies: ["JSON", "Linear", "Platform"], swiftSettings: strict),

        // MARK: The application layer: sessions, wiring, commands' work (time, signals and output injected)
        .target(
            name: "Session",
            dependencies: [
                "Platform", "JSON", "Linear", "Sensors", "GNSS", "Calibration", "Heading",
                "Geomagnetism", "Geodesy", "Navigation", "Simulation", "Terminal", "HeadingLog",
                "Outputs", "CMosquitto", "Places",
            ],
            swiftSettings: strict),

        // MARK: The command line: entry point, command specs, option groups → Session requests
        .executableTarget(
            name: "lodestone",
            dependencies: [
                "BuildInfo", "Options", "Session", "Platform", "Sensors", "GNSS", "Calibration", "Heading", "Geomagnetism", "Simulation",
                "Geodesy", "HeadingLog", "Terminal", "Outputs", "Places",
            ],
            swiftSettings: strict),

        // MARK: Benchmarks (release-built, run by `make bench`)
        .executableTarget(
            name: "LodestoneBench",
            dependencies: [
                "Linear", "Sensors", "Simulation", "Calibration", "Heading", "Geomagnetism", "Geodesy",
                "Terminal", "HeadingLog", "Navigation", "JSON", "Platform", "Session", "Attitude", "Outputs", "Places",
            ],
            path: "Benchmarks/LodestoneBench",
            swiftSettings: strict),

        // MARK: Tests (Swift Testing)
        // Shared helpers: the binary runner, tmux driver, fake gpsd, manual time and events, temporary
        // folders, captured output, a session's world (SessionHarness).
        .target(name: "TestSupport", dependencies: ["Platform", "Session"], path: "Tests/TestSupport"),
        .testTarget(name: "LinearTests", dependencies: ["Linear"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "Linear"]),
        .testTarget(name: "GeomagnetismTests", dependencies: ["Geomagnetism", "Linear"]),
        .testTarget(name: "CalibrationTests", dependencies: ["Calibration", "Simulation", "Sensors", "Platform"]),
        .testTarget(name: "HeadingTests", dependencies: ["Heading", "Simulation", "Attitude", "Linear"]),
        .testTarget(name: "AttitudeTests", dependencies: ["Attitude", "Linear"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "Linear"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Simulation", "Platform"]),
        .testTarget(name: "GNSSTests", dependencies: ["GNSS", "JSON", "Platform"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "GNSS", "Geodesy", "Simulation", "Linear"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Sensors", "Geomagnetism", "GNSS", "Attitude", "Linear", "Geodesy"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "Geodesy", "Linear"], exclude: ["Snapshots"]),
        .testTarget(name: "HeadingLogTests", dependencies: ["HeadingLog", "Platform"]),
        .testTarget(name: "OptionsTests", dependencies: ["Options"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "Geodesy", "Linear"]),
        .testTarget(name: "OutputsTests", dependencies: ["Outputs", "JSON", "Linear"]),
        .testTarget(name: "SessionTests", dependencies: [
            "Session", "TestSupport", "Platform", "Sensors", "Simulation", "GNSS", "Heading", "Calibration", "HeadingLog",
            "Terminal", "Linear", "JSON", "Geodesy", "Outputs",
        ]),
        .testTarget(name: "LodestoneTests", dependencies: ["lodestone", "TestSupport", "Session", "Options", "Linear", "Outputs", "JSON"]),
    ]
)
