import Compositor
import ImageCodecs
import Motion

/// `blurtool curve SPEC [--samples N] [--format csv|png] [-o OUT]`: a timing curve as numbers or as a plot,
/// because a curve is easier to judge looked at than read.
public struct CurveRequest: Equatable, Sendable {
    public enum Format: String, Sendable {
        case csv, png
    }

    public var curve: TimingCurve
    /// Points from t = 0 to t = d inclusive (d: the curve's own duration, else 1 s); the CSV's line count.
    public var samples = CurveRequest.defaultSamples
    public var format = Format.csv
    /// A path or "-"; nil prints the CSV on standard output.
    public var output: String?

    /// Eleven points: t = 0, 0.1, …, 1 for a curve without a duration of its own.
    public static let defaultSamples = 11
    public static let sampleRange = 2...100_000

    public init(curve: TimingCurve) {
        self.curve = curve
    }

    /// The arguments after `curve`: one SPEC, then `--samples`, `--format` and `-o` only.
    init(positionals: [String], options: [(name: String, value: String?)]) throws(UsageError) {
        guard positionals.count == 1 else {
            throw UsageError("'curve' needs exactly one SPEC, e.g. blurtool curve \"spring(response: 0.5)\"")
        }
        do {
            self.init(curve: try TimingCurve(parsing: positionals[0]))
        } catch {
            throw UsageError("curve: " + error.description)
        }
        var format: Format?
        for (name, value) in options {
            let value = value ?? ""
            switch name {
            case "--samples":
                let range = Double(CurveRequest.sampleRange.lowerBound)...Double(CurveRequest.sampleRange.upperBound)
                samples = Int(try ArgumentParser.number(value, name, in: range, integer: true))
            case "--format":
                guard let named = Format(rawValue: value.lowercased()) else {
                    throw UsageError("--format for 'curve' must be csv or png, not \(value.quotedForMessage())")
                }
                format = named
            case "--output": output = value
            default: throw UsageError("option '\(name)' does not apply to 'curve'")
            }
        }
        // An output named .png is a plot unless --format says otherwise, as images take their format from -o.
        self.format = format ?? (output?.lowercased().hasSuffix(".png") == true ? .png : .csv)
        if self.format == .png && output == nil {
            throw UsageError("a png plot needs -o OUT (a file, or - for standard output)")
        }
    }

    /// The curve's own duration (a spring's), else 1 s.
    var duration: Double { curve.intrinsicDuration ?? 1 }

    /// (t, progress) at `count` evenly spaced times from 0 to the duration; t is rounded to the nanosecond so
    /// that it prints as written (0.24, not 0.24000000000000005) and the value is taken at the printed t.
    func points(count: Int) -> [(time: Double, value: Double)] {
        let duration = duration
        return (0..<count).map { index in
            let time =
                index == count - 1
                ? duration : (Double(index) * duration / Double(count - 1) * 1e9).rounded() / 1e9
            return (time, curve.progress(atTime: time, duration: duration))
        }
    }

    /// The CSV text: one `t,value` line a sample, plain numbers.
    var csv: String {
        points(count: samples).map { "\($0.time.plainDescription),\($0.value.plainDescription)" }
            .joined(separator: "\n")
    }
}

/// Runs `blurtool curve`: prints or writes the samples, or draws and writes the plot.
struct CurveCommand {
    let request: CurveRequest
    let console: BlurTool.Console

    func run() throws {
        switch request.format {
        case .csv:
            guard let path = request.output, path != "-" else { return console.out(request.csv) }
            let output = try OutputFile(path)
            defer { output.discard() }
            try output.commit(Array((request.csv + "\n").utf8))
        case .png:
            let path = request.output ?? "-"
            let output = try OutputFile(path)
            defer { output.discard() }
            let image = try CurvePlot(request: request).render()
            try output.commit(
                try ImageWriting.encode(image, as: .png, request: RenderRequest(input: "-"), outputPath: path))
        }
    }
}
