import Compositor
import Motion

/// The iOS 13 card sheet and the navigation push. Apple publishes none of their numbers; each constant below names
/// the open-source reimplementation it comes from, which its author matched to the system's by eye and frame.
extension LayerTransition {
    /// The card sheet's numbers, from ivanvorobei/SPStorkController (MIT; `SPStorkPresentationController` and
    /// `SPStorkPresentingAnimationController`), a reimplementation of the iOS 13 card of Mail and Music.
    public enum Sheet {
        /// The status bar's height on the 390 × 844 pt iPhones, SPStork's `topSpace` (the status bar, 30 when
        /// shorter than 25): the presenting screen's top comes down to it.
        public static let topSpace = 47.0
        /// The card's top edge sits this far below `topSpace` (SPStork's `baseY = topSpace + 13`).
        public static let cardGap = 13.0
        /// The radius of the card's top corners and of the presenting screen's (SPStork's `cornerRadius`).
        public static let cornerRadius = 10.0
        /// The black over the presenting screen once the card is up (SPStork's `alpha`, the grade view's).
        public static let dim = 0.51
        /// 0.6 s on a critically damped UIKit spring with initial velocity 1 (SPStork's presenting animator).
        public static func timing() -> AnimationTiming {
            let spring = (try? TimingCurve.spring(dampingRatio: 1, initialVelocity: 1, duration: 0.6)) ?? .easeOut
            return AnimationTiming(curve: spring, duration: 0.6)
        }

        /// The presenting screen's scale about its centre, 1 − 2·topSpace / height (SPStork's
        /// `scaleForPresentingView`), which also brings its top edge down to `topSpace`.
        static func scale(height: Double) -> Double { max(1 - 2 * topSpace / height, 0.01) }
    }

    /// The navigation push's numbers, from charleshs91/LazyBackSwiper (`LazyBackAnimator`), a reimplementation of
    /// the navigation controller's back animation; a push is its reverse.
    public enum Push {
        /// The old screen moves this share of the width the other way (`kParallaxRatio`).
        public static let parallax = 0.3
        /// The black over the old screen when it is fully covered (`kDimmingAmount`).
        public static let dim = 0.5
        /// 0.3 s (`kTransitionDuration`) on `UIView.animate`'s default curve, ease-in-out.
        public static let timing = AnimationTiming(curve: .easeInOut, duration: 0.3)
    }

    /// `.pageSheet` presenting (or dismissing, `presenting` false, everything in reverse): the new screen as a card
    /// sliding up from the bottom to `topSpace + cardGap`, its top corners rounded; the old one scaled down about its
    /// centre, its corners rounding and a black dim coming over it, on a black background.
    func pageSheet(_ old: Layer, _ new: Layer, presenting: Bool, in bounds: Rect) -> Layer {
        let (screen, card) = presenting ? (old, new) : (new, old)
        let frame = screen.frame ?? bounds
        let scale = Sheet.scale(height: frame.height)
        var behind = covered(screen, dim: Sheet.dim, presenting: presenting)
        behind.clipCornerRadius = 0
        let shrunk = AffineTransform2D(scaleX: scale, y: scale).concatenating(behind.transform)
        let (fromRadius, toRadius) = presenting ? (0.0, Sheet.cornerRadius) : (Sheet.cornerRadius, 0)
        let (fromTransform, toTransform) = presenting ? (behind.transform, shrunk) : (shrunk, behind.transform)
        behind.transform = fromTransform
        behind.clipCornerRadius = fromRadius
        behind.animations.append(move(from: fromTransform, to: toTransform, timing))
        behind.animations.append(
            LayerAnimation(.cornerRadius(Track(from: fromRadius, to: toRadius)), timing: timing))
        // The card: its top edge at topSpace + cardGap; the clip reaches a radius past the bottom so that only its
        // top corners show rounded (`maskedCorners` top only).
        let top = Sheet.topSpace + Sheet.cardGap
        let cardFrame = card.frame ?? bounds
        var inner = card
        inner.frame = Rect(x: 0, y: 0, width: cardFrame.width, height: max((bounds.y + bounds.height) - top, 0))
        var sheet = Layer.group(
            [inner],
            frame: Rect(
                x: cardFrame.x, y: top, width: cardFrame.width, height: max((bounds.y + bounds.height) - top, 0) + 10))
        sheet.clipCornerRadius = Sheet.cornerRadius
        let below = AffineTransform2D(translationX: 0, y: (bounds.y + bounds.height) - top)
        let (cardFrom, cardTo) = presenting ? (below, AffineTransform2D.identity) : (.identity, below)
        sheet.transform = cardFrom
        sheet.animations.append(move(from: cardFrom, to: cardTo, timing))
        if !presenting { hideAtEnd(&sheet) }
        return .group([.color(.black, frame: bounds), behind, sheet])
    }

    /// The navigation push (`forward`) or pop: the new screen slides in from the right edge over the old one, which
    /// moves a `parallax` share of the width left under a growing dim; a pop runs it backwards.
    func navigationPush(_ old: Layer, _ new: Layer, forward: Bool) -> Layer {
        let (under, over) = forward ? (old, new) : (new, old)
        let width = (over.frame ?? under.frame)?.width ?? 0
        var behind = covered(under, dim: Push.dim, presenting: forward)
        let aside = AffineTransform2D(translationX: -Push.parallax * width, y: 0).concatenating(behind.transform)
        let (behindFrom, behindTo) = forward ? (behind.transform, aside) : (aside, behind.transform)
        behind.transform = behindFrom
        behind.animations.append(move(from: behindFrom, to: behindTo, timing))
        var top = over
        let offscreen = AffineTransform2D(translationX: width, y: 0).concatenating(top.transform)
        let (topFrom, topTo) = forward ? (offscreen, top.transform) : (top.transform, offscreen)
        top.transform = topFrom
        top.animations.append(move(from: topFrom, to: topTo, timing))
        if !forward { hideAtEnd(&top) }
        return .group([behind, top])
    }

    /// `screen` in a group of its own frame and transform, with a black dim over it fading in (or out when
    /// `presenting` is false) to `dim`: the screen that ends up behind.
    private func covered(_ screen: Layer, dim: Double, presenting: Bool) -> Layer {
        let frame = screen.frame!
        var inner = screen
        inner.frame = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        inner.transform = .identity
        var shade = Layer.color(.black, opacity: presenting ? 0 : dim)
        shade.animations.append(fade(from: presenting ? 0 : dim, to: presenting ? dim : 0, timing))
        var group = Layer.group([inner, shade], frame: frame, transform: screen.transform)
        group.isolated = true
        return group
    }
}
