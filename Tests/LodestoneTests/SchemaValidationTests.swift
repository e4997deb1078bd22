import Foundation
import Outputs
import Testing
import TestSupport

/// Every command's JSON output against the published schemas (`schema/`, Draft 2020-12, validated
/// by python3-jsonschema, which `make test` installs), and the one vocabulary across commands: the
/// same quantity has the same key everywhere.
@Suite("JSON outputs against schema/", .serialized)
struct SchemaValidationTests {
    static let schemaFolder = packageRoot.appendingPathComponent("schema")

    static var validatorAvailable: Bool {
        guard let python = executablePath(named: "python3"),
              let result = try? runProgram(python, ["-c", "import jsonschema"]) else { return false }
        return result.status == 0
    }

    /// Validates each file of JSON lines against its schema; the failures, one a line.
    static let validator = """
    import json, sys, pathlib
    import jsonschema
    folder = pathlib.Path(sys.argv[1])
    schemas = {p.name: json.loads(p.read_text()) for p in folder.glob("*.schema.json")}
    def validator_for(name):
        schema = schemas[name]
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        try:
            from referencing import Registry, Resource
            registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in schemas.values()])
            return cls(schema, registry=registry)
        except ImportError:
            store = {s["$id"]: s for s in schemas.values()}
            return cls(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))
    failures = 0
    for pair in sys.argv[2:]:
        name, path = pair.split("=", 1)
        v = validator_for(name)
        for n, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
            if not line.strip():
                continue
            for error in v.iter_errors(json.loads(line)):
                failures += 1
                print(f"{name} {path}:{n}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
    sys.exit(1 if failures else 0)
    """

    /// The JSON lines of every command that writes JSON, by the schema each follows.
    static func outputs(in folder: URL) throws -> [(schema: String, command: [String], lines: [String])] {
        let places = folder.appendingPathComponent("config/lodestone")
        try FileManager.default.createDirectory(at: places, withIntermediateDirectories: true)
        try "Home,52.3702,4.8952,50\nBoat,-33.87,151.21\n".write(to: places.appendingPathComponent("places.csv"), atomically: true, encoding: .utf8)
        let environment = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let log = folder.appendingPathComponent("run.csv").path
        // A short recording turning through 360° with accelerometer and gyroscope columns, so every
        // column of heading --from-file has a value on some line.
        let raw = folder.appendingPathComponent("raw.csv")
        let rows = (0..<40).map { i -> String in
            let a = Double(i) * 9 * .pi / 180
            return "\(Double(i) * 0.1),\(20 * cos(a)),\(-20 * sin(a)),-40,0,0,1,0,0,90"
        }
        try ("t,x,y,z,ax,ay,az,gx,gy,gz\n" + rows.joined(separator: "\n") + "\n").write(to: raw, atomically: true, encoding: .utf8)
        let runs: [(String, [String])] = [
            ("heading-update", ["watch", "--simulate", "--json", "--duration", "1.5"]),
            ("heading-update", ["serve", "--simulate", "--json", "-", "--duration", "1.5", "--refine"]),
            ("movement", ["track", "--simulate", "--format", "json", "--count", "3", "--distance-filter", "0"]),
            ("position", ["where", "--simulate", "--json"]),
            ("position", ["where", "--simulate", "--location", "52.52,5.07", "--json"]),
            ("place", ["places", "near", "--lat", "52.52", "--lon", "5.07", "--json"]),
            ("place", ["places", "near", "--lat", "52.3702", "--lon", "4.8952", "--json"]),
            ("place", ["places", "find", "Peking", "--json"]),
            ("place", ["places", "list", "--json"]),
            ("goto-guidance", ["goto", "52.6425,5.0597", "--simulate", "--location", "52.62,5.03", "--format", "json", "--count", "3"]),
            ("region-event", ["regions", "--simulate", "--region", "here:-33.8694,151.1990,500", "--region", "far:52,5,10",
                              "--format", "json", "--duration", "2.5"]),
            ("analysis-summary", ["log", "--simulate", "--output", log, "--duration", "2"]),
            ("analysis-summary", ["analyze", log, "--json"]),
            ("heading-replay", ["heading", "--from-file", raw.path, "--format", "json"]),
            ("heading-replay", ["heading", "--from-file", raw.path, "--format", "json", "--location", "-33.87,151.21", "--year", "2026.5"]),
            ("declination", ["declination", "--lat", "-33.8694", "--lon", "151.1990", "--year", "2026.5", "--json"]),
            ("declination", ["declination", "--lat", "89.5", "--lon", "10", "--year", "2026.5", "--json"]),
            ("geodesic", ["geod", "--inverse", "-33.8694", "151.1990", "-37.8136", "144.9631", "--json"]),
            ("geodesic", ["geod", "--direct", "-33.8694", "151.1990", "225", "10000", "--json"]),
            ("detection", ["detect", "--simulate", "--json"]),
            ("detection", ["detect", "--simulate", "--sensor", "lis2mdl", "--json"]),
        ]
        var outputs: [(String, [String], [String])] = []
        for (schema, command) in runs {
            // In process, as the binary runs it (the validator below is python3's jsonschema).
            let result = try runInProcess(command, environment: environment, deadline: 120)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            if command.first == "log" { continue }
            // detect prints one indented object: one line once its line breaks go (none is inside a string).
            let lines = command.first == "detect" ? [result.stdout.split(separator: "\n").joined()]
                : result.stdout.split(separator: "\n").map(String.init)
            #expect(!lines.isEmpty, "\(command) printed no JSON")
            outputs.append((schema, command, lines))
        }
        // serve's life-cycle events (MQTT topic event) need a broker to see on the wire; their payload
        // is ReportJSON.event's, made here as MQTTSink makes it.
        outputs.append(("serve-event", ["serve", "mqtt-event"], [("started", "lodestone serve started"), ("sensor", "sensor lost: I/O error"),
                                                                  ("stopping", "lodestone serve stopping")]
            .map { ReportJSON.event($0.0, message: $0.1, wall: 1_795_000_000.125).serialized() }))
        return outputs
    }

    /// Every key of a JSON value, nested ones included.
    static func keys(_ value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set(object.keys)) { $0.formUnion(keys($1.value)) }
        }
        if let array = value as? [Any] { return array.reduce(into: []) { $0.formUnion(keys($1)) } }
        return []
    }

    @Test("every command's JSON validates against its schema; one kind, one set of keys; the same quantity, the same key",
          .enabled(if: validatorAvailable, "python3-jsonschema is not installed (make test installs it)"))
    func everyOutput() throws {
        let folder = try makeTemporaryFolder("schemas")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = try Self.outputs(in: folder)
        var pairs: [String] = []
        for (index, output) in outputs.enumerated() {
            let file = folder.appendingPathComponent("out-\(index).jsonl")
            try (output.lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            pairs.append(output.schema + ".schema.json=" + file.path)
            // Every object of one kind has the same keys, in the same order.
            let orders = Set(output.lines.compactMap { line -> String? in
                guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    return nil
                }
                return object.keys.sorted().joined(separator: ",")
            })
            #expect(orders.count == 1, "\(output.command): objects with different keys: \(orders)")
        }
        let python = try #require(executablePath(named: "python3"))
        let result = try runProgram(python, ["-c", Self.validator, Self.schemaFolder.path] + pairs, timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")

        // The same quantity has one key in every command's output: the CSV log's.
        var keysByCommand: [String: Set<String>] = [:]
        for output in outputs {
            for line in output.lines {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { continue }
                keysByCommand[output.command[0], default: []].formUnion(Self.keys(object))
            }
        }
        let synonyms = ["lat", "lon", "latitude", "longitude", "lat1", "lon1", "lat2", "lon2", "mode", "fix_mode", "alt_hae_m",
                        "alt_msl_m", "altitude", "heading_magnetic_deg", "heading_magnetic_raw_deg", "speed", "course", "eph",
                        "timestamp", "t", "t_s", "azimuth1", "azimuth2", "monotonic", "unix_s"]
        // Every command, the one-shot ones (declination, geod, detect, the replay) too.
        #expect(Set(keysByCommand.keys) == ["watch", "serve", "track", "where", "places", "goto", "regions", "analyze", "heading",
                                            "declination", "geod", "detect"])
        for (command, keys) in keysByCommand {
            #expect(keys.isDisjoint(with: synonyms), "\(command) uses \(keys.intersection(synonyms))")
            // A latitude or longitude, of a fix or of a geodesic's point, is in degrees and says so as the log does.
            for key in keys where key.range(of: #"^(lat|lon)(\d|_|$)"#, options: .regularExpression) != nil {
                #expect(key.range(of: #"^(lat|lon)[12]?_deg$"#, options: .regularExpression) != nil, "\(command) names a position \(key)")
            }
        }
        // The one time key holds ISO 8601 UTC text wherever it appears; the seconds of a monotonic clock
        // (the live updates', a recording's) are monotonic_s.
        for output in outputs {
            for line in output.lines {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if let time = object["time"] as? String {
                    #expect(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$"#, options: .regularExpression) != nil,
                            "\(output.command): time '\(time)'")
                }
                if let monotonic = object["monotonic_s"] { #expect(monotonic is NSNumber, "\(output.command): monotonic_s") }
            }
        }
        for (quantity, key, commands) in [("latitude", "lat_deg", ["watch", "serve", "track", "where", "places", "goto", "regions", "declination"]),
                                          ("longitude", "lon_deg", ["watch", "serve", "track", "where", "places", "goto", "regions", "declination"]),
                                          ("fix mode", "gnss_mode", ["watch", "serve", "track", "where"]),
                                          ("altitude", "alt_m", ["watch", "serve", "track", "where"]),
                                          ("horizontal error", "eph_m", ["watch", "serve", "track", "where"]),
                                          ("speed over ground", "speed_mps", ["watch", "serve", "track", "where"]),
                                          ("time", "time", ["watch", "serve", "track", "where", "goto", "regions"]),
                                          ("seconds on the monotonic clock", "monotonic_s", ["watch", "serve", "heading"]),
                                          ("azimuth at the start", "azimuth1_deg", ["geod"]),
                                          ("point 1's latitude", "lat1_deg", ["geod"]),
                                          ("height above the ellipsoid", "height_km", ["declination"]),
                                          ("distance", "distance_m", ["places", "goto", "regions", "analyze", "geod"]),
                                          ("magnetic heading", "heading_mag_deg", ["watch", "serve", "heading"]),
                                          ("declination", "declination_deg", ["watch", "serve", "heading", "declination"]),
                                          ("field strength", "field_uT", ["watch", "serve", "heading"])] {
            for command in commands {
                #expect(keysByCommand[command]?.contains(key) == true, "\(command) names the \(quantity) other than \(key)")
            }
        }
    }

    @Test("each schema is Draft 2020-12, closed, with every property required and described with its unit")
    func schemasAreClosed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.schemaFolder.path).filter { $0.hasSuffix(".schema.json") }
        #expect(Set(files) == ["heading-update.schema.json", "fix.schema.json", "movement.schema.json", "region-event.schema.json",
                               "place.schema.json", "goto-guidance.schema.json", "position.schema.json",
                               "analysis-summary.schema.json", "heading-replay.schema.json", "declination.schema.json",
                               "geodesic.schema.json", "detection.schema.json", "serve-event.schema.json"])
        var typeOfKey: [String: String] = [:]
        for file in files {
            let data = try Data(contentsOf: Self.schemaFolder.appendingPathComponent(file))
            let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema", "\(file)")
            #expect(schema["additionalProperties"] as? Bool == false, "\(file)")
            let properties = try #require(schema["properties"] as? [String: [String: Any]])
            #expect(Set(schema["required"] as? [String] ?? []) == Set(properties.keys), "\(file): every key is always present")
            for (key, property) in properties {
                let description = property["description"] as? String ?? ""
                #expect(!description.isEmpty, "\(file) \(key) has no description")
                // A key with a unit in its name says the unit in words.
                for (suffix, unit) in [("_deg", "degrees"), ("_m", "metres"), ("_mps", "metres per second"), ("_s", "seconds"),
                                       ("_uT", "microtesla"), ("_dps", "degrees per second"), ("_hz", "hertz")]
                    where key.hasSuffix(suffix) {
                    #expect(description.contains(unit), "\(file) \(key): '\(description)' does not say \(unit)")
                }
                // The same key has the same type in every schema (whether it may be null aside).
                let types = (property["type"] as? [String]) ?? (property["type"] as? String).map { [$0] }
                if let type = types.map({ $0.filter { $0 != "null" }.joined(separator: "|") }) {
                    if let seen = typeOfKey[key], key != "time" { #expect(seen == type, "\(key) is \(seen) and \(type)") }
                    typeOfKey[key] = type
                }
            }
        }
    }
}
