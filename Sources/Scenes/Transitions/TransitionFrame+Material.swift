import Compositor

/// `material`, our own style: the old photo blurs into the thin dark material, the new one sharpens out of it.
///
/// The schedule, at progress p: the old photo is seen through the material at effect min(1, 2p) (the effect
/// scaling of `BackdropMaterial.effectiveRecipe`: blur, saturation, tints and grain from identity), the new one
/// at effect min(1, 2(1 − p)); the frame is old·(1 − w) + new·w with w = smoothstep(0.4, 0.6, p). So until 0.4
/// only the old photo shows, blurring; from 0.6 only the new one, sharpening; between them both are close to the
/// whole material and cross-fade, so nothing jumps.
extension TransitionFrame {
    static let materialRecipe = Material.thin.recipe(for: .dark)

    /// The share of the new photo at progress p.
    static func materialShare(_ p: Double) -> Double { smoothstep(0.4, 0.6, p) }

    func material(workspace: Workspace) {
        let share = TransitionKernels.weight(TransitionFrame.materialShare(p))
        let old = share < TransitionKernels.one ? seen(from, effect: min(1, 2 * p), workspace: workspace) : nil
        let new = share > 0 ? seen(to, effect: min(1, 2 * (1 - p)), workspace: workspace) : nil
        let width = self.width
        forEachRow { y in
            switch (old, new) {
            case (let old?, let new?):
                TransitionKernels.mix(
                    old.row(y), new.row(y), into: target.row(y), count: width,
                    weightA: TransitionKernels.one - share, weightB: share, bias: SIMD4(repeating: 128))
            case (let only?, nil), (nil, let only?):
                target.row(y).update(from: only.row(y), count: width * 4)
            case (nil, nil):
                break  // a share is either below one or above zero
            }
        }
    }

    /// `image` through the material at `effect` (0: the image itself), blurred as a full-screen backdrop.
    private func seen(_ image: Image, effect: Double, workspace: Workspace) -> Image {
        guard effect > 0 else { return image }
        let recipe = BackdropMaterial(recipe: TransitionFrame.materialRecipe, effect: effect).effectiveRecipe
        let material = MaterialEffect(
            recipe: recipe, pixelsPerPoint: MaterialEffect.pixelsPerPoint(fillingScreenWith: width, height),
            threads: threads)
        return material.apply(to: image, workspace: workspace)
    }
}

/// `curlup`, `curldown`: UIKit's `.transitionCurlUp/Down`, the old photo curled away (`PageCurl` at the progress,
/// its default angle and radius) over the new one, whose pixels show where the page has gone.
extension TransitionFrame {
    func curl(_ direction: PageCurl.Direction) {
        let curled = PageCurl(progress: p, direction: direction).curled(from, threads: threads)
        let rowBytes = width * 4
        forEachRow { y in target.row(y).update(from: to.row(y), count: rowBytes) }
        target.draw(curled, threads: threads)
    }
}
