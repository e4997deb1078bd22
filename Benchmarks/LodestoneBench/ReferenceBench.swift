import Attitude
import Glibc
import JSON
import Linear
import Platform

// Side by side with the reference filters, VQF (C++) and x-io Fusion (C), compiled by `make bench` from
// the source distributions `make bench-deps` downloads (Benchmarks/reference: our harnesses, their
// code under .build/bench-deps, never in the repository). The harness binaries are found in
// LODESTONE_REFERENCE_BIN (default .build/bench/reference); a missing one is reported as missing.
//
// - `attitude.side_by_side`: CPU time per update on the same trial rows (the first BROAD trial, else a
//   simulated vehicle), Lodestone's rounds interleaved with each reference's, so all see the same
//   machine; the ratios, with and without the heading read each sample. Goals: ≤ 0.5 × VQF, ≤ 4 × Fusion.
// - The same harnesses give each reference's heading per sample on every trial; `referenceScores`
//   scores them with Lodestone's own metric (`score`), for the accuracy figures beside ours.

/// Where `make bench` puts the harness binaries.
private var referenceFolder: String { Environment.value("LODESTONE_REFERENCE_BIN") ?? ".build/bench/reference" }

/// The reference filters: name, harness binary.
private let referenceFilters = [("vqf", "vqf_harness"), ("fusion", "fusion_harness")]

/// A harness binary's path when it was built, else nil.
private func harness(_ binary: String) -> String? {
    let path = referenceFolder + "/" + binary
    return access(path, X_OK) == 0 ? path : nil
}

/// Runs a command (arguments quoted for the shell) and returns its standard output when it exits 0.
private func run(_ arguments: [String]) -> String? {
    let command = arguments.map { "'" + $0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }
        .joined(separator: " ")
    guard let pipe = popen(command, "r") else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[..<n])
    }
    return pclose(pipe) == 0 ? String(decoding: bytes, as: UTF8.self) : nil
}

/// The trial file both sides run: the first BROAD trial, else a simulated vehicle `make bench` exported.
private func sideBySideTrialPath() -> String? {
    let folder = Environment.value("LODESTONE_BROAD_DIR") ?? ".build/bench/broad"
    let names = (Files.list(folder) ?? []).sorted()
    if let broad = names.first(where: { $0.hasPrefix("broad_") && $0.hasSuffix("_raw.csv") }) { return folder + "/" + broad }
    if let sim = names.first(where: { $0.hasPrefix("sim_") && $0.hasSuffix("_raw.csv") }) { return folder + "/" + sim }
    // Neither: export the simulated vehicles to a scratch folder.
    let scratch = "/tmp/lodestone-bench-reference-\(getpid())"
    mkdir(scratch, 0o755)
    return exportSimulatedTrials(to: scratch) ? scratch + "/sim_car_raw.csv" : nil
}

private struct TrialSample { var t: Double; var g: Vector3; var a: Vector3; var m: Vector3 }

private func readSamples(_ path: String, limit: Int) -> [TrialSample] {
    guard let text = try? Files.readText(path) else { return [] }
    var samples: [TrialSample] = []
    for line in text.split(separator: "\n").dropFirst() {
        let v = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) ?? .nan }
        guard v.count >= 10, v.allSatisfy(\.isFinite) else { continue }
        samples.append(TrialSample(t: v[0], g: Vector3(v[7], v[8], v[9]), a: Vector3(v[4], v[5], v[6]), m: Vector3(v[1], v[2], v[3])))
        if samples.count == limit { break }
    }
    return samples
}

/// CPU time of the calling thread (ns).
private func threadNanoseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

/// One round of Lodestone's filter over `updates` updates cycling through `samples`: CPU ns per update.
private func lodestoneRound(_ samples: [TrialSample], updates: Int, readHeading: Bool) -> Double {
    let period = samples[samples.count - 1].t - samples[0].t + (samples[1].t - samples[0].t)
    var filter = AttitudeFilter()
    var sum = 0.0
    let t0 = threadNanoseconds()
    for i in 0..<updates {
        let s = samples[i % samples.count]
        let t = s.t + Double(i / samples.count) * period
        // With the heading read each sample as the pipeline reads it: `updatedEstimate` (reading
        // `estimate` after `update` would first copy the whole filter, a cost of Swift's, not the filter's).
        if readHeading {
            sum += filter.updatedEstimate(time: t, gyroscope: s.g, accelerometer: s.a, magnetometer: s.m).headingDegrees ?? 0
        } else {
            filter.update(time: t, gyroscope: s.g, accelerometer: s.a, magnetometer: s.m)
        }
    }
    let ns = (threadNanoseconds() - t0) / Double(updates)
    blackHole(sum + filter.quaternion.w)
    return ns
}

func runReferenceBenchmarks() {
    guard report.shouldRun("attitude.side_by_side") else { return }
    guard let path = sideBySideTrialPath() else {
        print("attitude.side_by_side: no trial to run (no BROAD trials and the simulated ones could not be written); skipped")
        return
    }
    let rows = 20_000, updates = 200_000, rounds = 5
    let samples = readSamples(path, limit: rows)
    guard samples.count >= 2 else { print("attitude.side_by_side: \(path) has no usable rows; skipped"); return }
    var ours = (update: Double.infinity, heading: Double.infinity)
    var theirs: [String: (update: Double, heading: Double)] = [:]
    var missing: [String] = []
    let available = referenceFilters.compactMap { name, binary -> (String, String)? in
        guard let h = harness(binary) else { missing.append(name); return nil }
        return (name, h)
    }
    for name in missing {
        print("attitude.side_by_side: reference missing: \(name) (no \(referenceFolder)/\(name)_harness; run make bench-deps, then make bench)")
    }
    // Interleaved: a round of ours, then one of each reference, so a busy spell hits all alike.
    for _ in 0..<rounds {
        ours.update = min(ours.update, lodestoneRound(samples, updates: updates, readHeading: false))
        ours.heading = min(ours.heading, lodestoneRound(samples, updates: updates, readHeading: true))
        for (name, binary) in available {
            guard let text = run([binary, path, "time", "\(samples.count)", "\(updates)", "1"]),
                  let line = try? JSONValue.parse(text.split(separator: "\n").last.map(String.init) ?? ""),
                  let update = line["ns_per_update"]?.double, let heading = line["ns_per_update_heading"]?.double
            else { continue }
            let best = theirs[name] ?? (.infinity, .infinity)
            theirs[name] = (min(best.update, update), min(best.heading, heading))
        }
    }
    let trialName = String(path.split(separator: "/").last ?? "")
    var extra: [(String, String)] = [("trial", "\"\(trialName)\""), ("rows", "\(samples.count)"),
                                     ("lodestone_ns", fixed(ours.update, 1)), ("lodestone_heading_ns", fixed(ours.heading, 1))]
    let goals = ["vqf": 0.5, "fusion": 4.0]
    var met = true
    for (name, _) in referenceFilters {
        guard let t = theirs[name] else {
            extra.append(("\(name)_ns", "null"))
            if !missing.contains(name) { print("attitude.side_by_side: the \(name) harness failed on \(path)") }
            met = false
            continue
        }
        let ratio = ours.update / t.update
        extra += [("\(name)_ns", fixed(t.update, 1)), ("\(name)_heading_ns", fixed(t.heading, 1)),
                  ("ratio_\(name)", fixed(ratio, 2)), ("ratio_\(name)_heading", fixed(ours.heading / t.heading, 2)),
                  ("goal_ratio_\(name)", fixed(goals[name] ?? 1, 1))]
        if ratio > goals[name] ?? 1 { met = false }
    }
    extra.append(("ok", met ? "true" : "false"))
    report.add(BenchResult(name: "attitude.side_by_side", nsPerOp: ours.update, iterations: updates * rounds, extra: extra))
}

/// Each reference filter's heading score on each trial in `folder` (broad_NN_*_raw.csv and
/// sim_NAME_raw.csv, with their _truth.csv), from the harnesses' headings and our own metric:
/// "attitude.reference.vqf.01" → (rmse, p95), as `loadReference` reads them from a file.
func referenceScores(folder: String) -> [String: (rmse: Double, p95: Double)] {
    let available = referenceFilters.compactMap { name, binary in harness(binary).map { (name, $0) } }
    guard !available.isEmpty else { return [:] }
    var out: [String: (rmse: Double, p95: Double)] = [:]
    for file in (Files.list(folder) ?? []).sorted() where file.hasSuffix("_raw.csv") && (file.hasPrefix("broad_") || file.hasPrefix("sim_")) {
        let path = folder + "/" + file
        let trial = String(file.split(separator: "_")[1])
        guard let truthText = try? Files.readText(String(path.dropLast("_raw.csv".count)) + "_truth.csv") else { continue }
        let truth = truthText.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) ?? .nan }
        }
        for (name, binary) in available {
            guard let text = run([binary, path, "headings"]) else {
                print("attitude.reference.\(name).\(trial): the harness failed on \(path)")
                continue
            }
            let headings = text.split(separator: "\n").map { Double($0) ?? .nan }
            guard headings.count == truth.count else {
                print("attitude.reference.\(name).\(trial): \(headings.count) headings for \(truth.count) truth rows; skipped")
                continue
            }
            var errors: [Double] = []
            for (h, t) in zip(headings, truth) where isMetricRow(t) && h.isFinite {
                errors.append(abs(remainder(h - t[1], 360)))
            }
            out["attitude.reference.\(name).\(trial)"] = rmseAndP95(errors)
        }
    }
    return out
}
