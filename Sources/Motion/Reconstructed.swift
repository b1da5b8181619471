/// The motion constants that come from reimplementations of UIKit rather than from Apple, in one place so that a
/// better source can correct them (see the project's MOTION.md notes: Apple documents names and defaults, not
/// algorithms).
public enum Reconstructed {
    /// A spring has settled once it stays within this fraction of its distance. Core Animation's own constant
    /// is not published; 0.001 is what reimplementations of UIKit's duration-based spring and of
    /// `CASpringAnimation.settlingDuration` use, and it is below a point's thousandth on a 1000-point move.
    public static let settlingThreshold = 0.001

    /// UIKit's duration-based spring (`usingSpringWithDamping:`, `UISpringTimingParameters(dampingRatio:)`)
    /// has no over-damping: the ratio is clamped to at most 1. Apple does not say what a damping of 0 (which
    /// UIKit accepts) becomes; the floor of 0.01 is the one of the reconstruction quoted in Stack Overflow
    /// question 61763337 ("only allow damping ratio between just above 0 and 1"), and keeps the solved stiffness
    /// finite.
    public static let uiKitDampingRatioRange = 0.01...1.0

    /// UIKit clamps the duration its stiffness is solved for to about this range.
    public static let uiKitDurationRange = 0.01...10.0

    /// UIKit's duration-based spring has mass 1 and the stiffness for which the oscillation's envelope,
    /// amplitude included, has decayed to `settlingThreshold` exactly at the duration (solved by Newton's
    /// method in `Spring(dampingRatio:initialVelocity:duration:)`); then damping = 2ζ√stiffness.
    public static let uiKitMass = 1.0
}
