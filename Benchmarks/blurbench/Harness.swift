#if canImport(Glibc)
    import Glibc
#endif

/// One named piece of work over `megapixels` of image; `run` returns a checksum so the optimiser cannot
/// drop the work. `prepare`, when given, runs before every trial and is not timed: what a peer script does
/// outside its stopwatch (a new canvas, cleared), done the same way for ours.
struct Benchmark {
    let name: String
    let megapixels: Double
    var prepare: (() -> Void)? = nil
    let run: () throws -> Int

    init(name: String, megapixels: Double, prepare: (() -> Void)? = nil, run: @escaping () throws -> Int) {
        (self.name, self.megapixels, self.prepare, self.run) = (name, megapixels, prepare, run)
    }
}

struct Measurement {
    let name: String
    let megapixels: Double
    let milliseconds: [Double]
    let checksum: Int

    var median: Double {
        let sorted = milliseconds.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var minimum: Double { milliseconds.min() ?? 0 }
    var megapixelsPerSecond: Double { megapixels / (median / 1000) }
}

enum Harness {
    static func measure(_ benchmark: Benchmark, warmup: Int, trials: Int) throws -> Measurement {
        let clock = ContinuousClock()
        var checksum = 0
        for _ in 0..<warmup {
            benchmark.prepare?()
            checksum &+= try benchmark.run()
        }
        var times: [Double] = []
        for _ in 0..<trials {
            benchmark.prepare?()
            let start = clock.now
            checksum &+= try benchmark.run()
            let elapsed = clock.now - start
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return Measurement(
            name: benchmark.name, megapixels: benchmark.megapixels, milliseconds: times,
            checksum: checksum)
    }

    static func table(_ results: [Measurement], copyMilliseconds: Double?) -> String {
        var lines = [
            pad("benchmark", 30) + pad("median ms", 11) + pad("min ms", 10) + pad("MP/s", 9) + pad("× copy", 8)
                + "SIMD speed-up"
        ]
        for result in results {
            let ratio = copyMilliseconds.map { String(format1: result.median / $0) } ?? "-"
            let speedUp =
                scalarTwin(of: result, in: results).map { String(format1: $0.median / result.median) + "×" } ?? ""
            lines.append(
                pad(result.name, 30) + pad(String(format1: result.median), 11)
                    + pad(String(format1: result.minimum), 10) + pad(String(format1: result.megapixelsPerSecond), 9)
                    + pad(ratio, 8) + speedUp)
        }
        return lines.joined(separator: "\n")
    }

    /// The same benchmark run with the scalar twin kernels, if it was measured.
    static func scalarTwin(of result: Measurement, in results: [Measurement]) -> Measurement? {
        results.first { $0.name == result.name + "-scalar" }
    }

    static func json(_ results: [Measurement], copyMilliseconds: Double?, input: String, threads: Int) -> String {
        let entries = results.map { result in
            "    {\"name\": \"\(result.name)\", \"median_ms\": \(result.median), \"min_ms\": \(result.minimum), "
                + "\"megapixels_per_second\": \(result.megapixelsPerSecond), "
                + "\"ratio_to_copy\": \(copyMilliseconds.map { String(result.median / $0) } ?? "null"), "
                + "\"simd_speedup\": "
                + "\(scalarTwin(of: result, in: results).map { String($0.median / result.median) } ?? "null"), "
                + "\"trials\": \(result.milliseconds.count)}"
        }
        return "{\n  \"input\": \"\(input)\",\n  \"threads\": \(threads),\n  \(Machine.current().json),\n"
            + "  \"copy_ms\": \(copyMilliseconds.map { String($0) } ?? "null"),\n  \"results\": [\n"
            + entries.joined(separator: ",\n") + "\n  ]\n}"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

extension String {
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
