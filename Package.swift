// swift-tools-version:6.0
//
// Lodestone: a compass and heading toolkit for Linux.
// See ARCHITECTURE.md for what each module owns and how data flows.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "lodestone",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lodestone", targets: ["lodestone"]),
        .executable(name: "lodestone-bench", targets: ["LodestoneBench"]),
    ],
    targets: [
        // MARK: System libraries (the only C we call)
        .systemLibrary(name: "CI2C", path: "Sources/CI2C"),
        .systemLibrary(name: "CGPS", path: "Sources/CGPS"),

        // MARK: Pure value and math modules (no I/O, no Foundation)
        .target(name: "Linear", swiftSettings: strict),
        .target(name: "JSON", swiftSettings: strict),
        .target(name: "Geodesy", swiftSettings: strict),
        .target(name: "Geomagnetism", exclude: ["generate_coefficients.py"], swiftSettings: strict),
        .target(name: "Calibration", dependencies: ["Linear", "JSON"], swiftSettings: strict),
        .target(name: "Heading", dependencies: ["Linear", "Calibration", "Geomagnetism"], swiftSettings: strict),
        .target(name: "Attitude", dependencies: ["Linear"], swiftSettings: strict),

        // MARK: The OS edge
        .target(name: "Platform", swiftSettings: strict),
        .target(name: "Sensors", dependencies: ["CI2C", "Linear", "Platform"], swiftSettings: strict),
        .target(name: "GNSS", dependencies: ["CGPS", "JSON", "Platform"], swiftSettings: strict),

        // MARK: Stages built on the above
        .target(name: "Navigation", dependencies: ["Geodesy", "GNSS", "Platform"], swiftSettings: strict),
        .target(name: "Simulation", dependencies: ["Linear", "Sensors", "GNSS", "Geomagnetism", "Geodesy"], swiftSettings: strict),
        .target(name: "Terminal", dependencies: ["Platform"], swiftSettings: strict),
        .target(name: "HeadingLog", dependencies: ["Linear", "Geodesy", "Platform"], swiftSettings: strict),
        .target(name: "Options", swiftSettings: strict),

        // MARK: The command line: argument parsing and wiring only
        .executableTarget(
            name: "lodestone",
            dependencies: [
                "Options", "Platform", "JSON", "Sensors", "GNSS", "Calibration", "Heading",
                "Geomagnetism", "Geodesy", "Navigation", "Simulation", "Terminal", "HeadingLog",
            ],
            swiftSettings: strict),

        // MARK: Benchmarks (release-built, run by `make bench`)
        .executableTarget(
            name: "LodestoneBench",
            dependencies: [
                "Linear", "Sensors", "Simulation", "Calibration", "Heading", "Geomagnetism", "Geodesy",
                "Terminal", "HeadingLog", "Navigation", "JSON", "Platform", "Attitude",
            ],
            path: "Benchmarks/LodestoneBench",
            swiftSettings: strict),

        // MARK: Tests (Swift Testing)
        .testTarget(name: "LinearTests", dependencies: ["Linear"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"]),
        .testTarget(name: "GeomagnetismTests", dependencies: ["Geomagnetism"]),
        .testTarget(name: "CalibrationTests", dependencies: ["Calibration", "Simulation", "Sensors"]),
        .testTarget(name: "HeadingTests", dependencies: ["Heading", "Simulation"]),
        .testTarget(name: "AttitudeTests", dependencies: ["Attitude", "Linear"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "Linear"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Simulation"]),
        .testTarget(name: "GNSSTests", dependencies: ["GNSS", "JSON"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "GNSS", "Geodesy"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Sensors", "Geomagnetism", "GNSS"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal"], exclude: ["Snapshots"]),
        .testTarget(name: "HeadingLogTests", dependencies: ["HeadingLog"]),
        .testTarget(name: "OptionsTests", dependencies: ["Options"]),
        .testTarget(name: "LodestoneTests", dependencies: ["lodestone"]),
    ]
)
