extension Int {
    /// `value` rounded toward zero and limited to `range`; NaN gives the lower bound. `Int(_:)` traps on NaN,
    /// infinities and values past ±2⁶³, which hostile geometry (a frame at 1e300) produces.
    package init(saturating value: Double, within range: ClosedRange<Int>) {
        if value.isNaN {
            self = range.lowerBound
        } else if value <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if value >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            self = Int(value)
        }
    }
}
