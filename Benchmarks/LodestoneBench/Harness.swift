import Glibc
import Platform

/// Monotonic time in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Keeps a value alive so the optimiser cannot delete the work that produced it.
@_optimize(none) @inline(never) func blackHole<T>(_ value: T) { _ = value }

/// One benchmark result.
struct BenchResult {
    var name: String
    var nsPerOp: Double
    var iterations: Int
    var extra: [(String, String)]
}

/// Collects results and prints them: one JSON object per line as each finishes, a table at the end.
final class BenchReport {
    private(set) var results: [BenchResult] = []
    let filter: String?

    init(filter: String?) { self.filter = filter }

    func shouldRun(_ name: String) -> Bool {
        guard let filter else { return true }
        return name.contains(filter)
    }

    func add(_ r: BenchResult) {
        results.append(r)
        var line = "{\"benchmark\": \"\(r.name)\", \"ns_per_op\": \(jsonNumber(r.nsPerOp, 2)), \"iterations\": \(r.iterations)"
        for (k, v) in r.extra { line += ", \"\(k)\": \(v)" }
        line += "}"
        StandardOutput().write(line + "\n")
    }

    func printTable() {
        let nameWidth = max(12, results.map(\.name.count).max() ?? 0)
        print("")
        print(pad("benchmark", nameWidth) + "  " + padLeft("ns/op", 14) + "  " + padLeft("ops/s", 14) + "  notes")
        print(String(repeating: "-", count: nameWidth + 46))
        for r in results {
            let opsPerSecond = r.nsPerOp > 0 ? 1e9 / r.nsPerOp : 0
            let notes = r.extra.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
            print(pad(r.name, nameWidth) + "  " + padLeft(fixed(r.nsPerOp, 1), 14) + "  "
                  + padLeft(fixed(opsPerSecond, 0), 14) + "  " + notes)
        }
    }
}

/// Runs `body(iterations)` after a warm-up, repeats a few times and keeps the fastest run.
/// `body` must perform exactly `iterations` operations.
func measure(iterations: Int, repeats: Int = 5, _ body: (Int) -> Void) -> Double {
    body(max(1, iterations / 10))
    var best = Double.infinity
    for _ in 0..<repeats {
        let t0 = monotonicNanoseconds()
        body(iterations)
        let t1 = monotonicNanoseconds()
        best = min(best, Double(t1 - t0) / Double(iterations))
    }
    return best
}

/// A JSON number for the results line: `x` rounded to `decimals` places, `null` when not finite.
func jsonNumber(_ x: Double, _ decimals: Int) -> String { x.isFinite ? plain(x, decimals: decimals) : "null" }

private func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
private func padLeft(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
