extension PathStroker {
    /// The most dashes one stroke may be cut into; a pattern that would make more is not applied and the line
    /// is drawn solid, as Skia does past its own limit (10⁶). A dash of 10⁻³⁰⁰ along a line of any length is
    /// refused before any work.
    static let maximumDashCount = 1 << 20

    /// `lines` cut into dashes by `pattern` (an even count of on and off lengths, not all zero), each subpath
    /// starting `phase` into the pattern, as SVG's `stroke-dasharray` and `stroke-dashoffset` and Core
    /// Graphics' `setLineDash` do. Nil when that would make more than `maximumDashCount` dashes.
    ///
    /// Lengths are measured along the flattened polylines. A dash crossing a corner keeps it (and its join); a
    /// dash of zero length is a lone point facing the path's direction there, drawn as a dot or square by round
    /// and square caps. A closed subpath is dashed from its start round to its start again, the last dash not
    /// joined to the first. A subpath of one point is kept as it is.
    static func dashes(of lines: [StrokePolyline], pattern: [Double], phase: Double) -> [StrokePolyline]? {
        let period = pattern.reduce(0, +)
        let onCount = Double(pattern.count / 2)
        var estimate = 0.0
        for line in lines {
            estimate += (length(of: line) / period + 1) * onCount
            if !(estimate <= Double(maximumDashCount)) { return nil }
        }
        var phaseInPeriod = phase.truncatingRemainder(dividingBy: period)
        if phaseInPeriod < 0 { phaseInPeriod += period }
        var result: [StrokePolyline] = []
        for line in lines {
            guard line.points.count > 1 else {
                result.append(line)
                continue
            }
            var dasher = Dasher(pattern: pattern, phase: phaseInPeriod)
            dasher.cut(line, into: &result)
            if result.count > maximumDashCount { return nil }
        }
        return result
    }

    /// The polyline's length, its closing segment included when closed.
    private static func length(of line: StrokePolyline) -> Double {
        let count = line.points.count
        guard count > 1 else { return 0 }
        var total = 0.0
        for index in 0..<(line.closed ? count : count - 1) {
            total += distance(line.points[index], line.points[(index + 1) % count])
        }
        return total
    }
}

/// Walks one polyline through the dash pattern.
private struct Dasher {
    typealias Vertex = (x: Double, y: Double)
    let pattern: [Double]
    /// The pattern entry in force: even entries are dashes, odd ones gaps.
    var entry = 0
    /// What is left of it.
    var left: Double
    /// The dash being drawn, if the pattern is on.
    var dash: StrokePolyline?

    init(pattern: [Double], phase: Double) {
        self.pattern = pattern
        var into = phase
        // Entries wholly before the phase are passed (one that ends at it too, as intervals are half-open, but
        // not a zero-length one there: that dash is a dot at the start). At most once round: rounding may
        // leave `into` a hair over the last entry, which is then the start.
        while into > pattern[entry] || (into == pattern[entry] && pattern[entry] > 0), entry + 1 < pattern.count {
            into -= pattern[entry]
            entry += 1
        }
        left = max(pattern[entry] - into, 0)
    }

    var isOn: Bool { entry % 2 == 0 }

    mutating func cut(_ line: StrokePolyline, into result: inout [StrokePolyline]) {
        let count = line.points.count
        let segments = line.closed ? count : count - 1
        if isOn { dash = StrokePolyline(points: [line.points[0]], smooth: [false]) }
        for index in 0..<segments {
            let (from, to) = (line.points[index], line.points[(index + 1) % count])
            let length = PathStroker.distance(from, to)
            guard length > 0 else { continue }
            let direction = ((to.x - from.x) / length, (to.y - from.y) / length)
            var position = 0.0
            // Pattern boundaries within this segment; the cap on the dash count bounds the loop.
            while left <= length - position {
                position += left
                let point = position >= length ? to : PathStroker.offset(from, direction, position)
                if var finished = dash {
                    finished.points.append(point)
                    finished.smooth.append(false)
                    finished.direction = direction
                    result.append(finished)
                    dash = nil
                } else {
                    dash = StrokePolyline(points: [point], smooth: [false], direction: direction)
                }
                entry = (entry + 1) % pattern.count
                left = pattern[entry]
                if result.count > PathStroker.maximumDashCount { return }
            }
            left -= length - position
            if dash != nil {
                // The dash goes on round the corner at the segment's end, joined as the path is there; at the
                // polyline's end (a closed one's start again) it ends.
                dash!.points.append(to)
                dash!.smooth.append(index + 1 < segments ? line.smooth[(index + 1) % count] : false)
            }
        }
        if let unfinished = dash { result.append(unfinished) }
    }
}
