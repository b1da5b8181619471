import CBlurToolAPI
import Compositor
import Scenes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `blurtool_workspace_t`: the scratch memory a renderer passes to every frame's blur and material calls.
final class WorkspaceHandle {
    let workspace = Workspace()
    /// The last material's recipe with its effect applied, rewritten in place call after call.
    var recipe = MaterialRecipe(blurPoints: 0)
}

@_cdecl("blurtool_workspace_new")
public func blurtool_workspace_new() -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(WorkspaceHandle()).toOpaque())
}

@_cdecl("blurtool_workspace_free")
public func blurtool_workspace_free(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<WorkspaceHandle>.fromOpaque(UnsafeRawPointer(handle)).release()
}

func workspaceHandle(_ handle: OpaquePointer?) -> WorkspaceHandle {
    guard let handle else { return WorkspaceHandle() }
    return Unmanaged<WorkspaceHandle>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

func workspace(_ handle: OpaquePointer?) -> Workspace { workspaceHandle(handle).workspace }

/// The source pixels a region's filter reads (its reach around the region, clipped to the buffer; all of it
/// when the edge wraps), premultiplied, and where the region sits in them.
private func readWindow(
    _ source: CallerBuffer, region: PixelBox, reach: Int?, _ workspace: Workspace
)
    -> (image: Image, x: Int, y: Int)
{
    guard source.isStraight else { return (source.view(source.whole, workspace), region.x, region.y) }
    let window = source.window(around: region, reach: reach)
    return (source.premultiplied(window), region.x - window.x, region.y - window.y)
}

/// Whether a region filter over straight-alpha pixels may run on them as premultiplied ones: every pixel it
/// reads (the region and its reach, all of the buffer for a wrapped edge) is opaque, and the edge reads no
/// transparent pixels, so the result is opaque too and its straight and premultiplied bytes agree. That saves
/// converting the window and the result both, for the opaque photos most straight buffers hold.
private func readsOnlyOpaque(
    _ source: CallerBuffer, region: PixelBox, reach: Int?, edge: EdgeMode, _ workspace: Workspace
) -> Bool {
    guard source.isStraight, edge != .transparent else { return false }
    return source.view(source.window(around: region, reach: reach), workspace).isOpaque
}

/// The destination of a region's result: the caller's buffer of the region's size, or the region itself.
private func destination(
    _ pointer: UnsafePointer<blurtool_buffer_t>?, source: CallerBuffer, region: PixelBox
)
    throws(CallFailure) -> (buffer: CallerBuffer, x: Int, y: Int)
{
    guard pointer != nil else { return (source, region.x, region.y) }
    let buffer = try CallerBuffer(pointer, "destination")
    guard buffer.width == region.width, buffer.height == region.height else {
        throw .argument(
            "destination",
            "is \(buffer.width)x\(buffer.height); it must have the region's size, \(region.width)x\(region.height)")
    }
    return (buffer, 0, 0)
}

/// The bytes of `box` in `source` to (x, y) of `destination`, as they are (the buffers may overlap).
private func copyBytes(of source: CallerBuffer, _ box: PixelBox, to destination: CallerBuffer, x: Int, y: Int) {
    let downwards = destination.pixels + y * destination.stride > source.pixels + box.y * source.stride
    for index in 0..<box.height {
        let row = downwards ? box.height - 1 - index : index
        memmove(
            destination.pixels + (y + row) * destination.stride + x * 4,
            source.pixels + (box.y + row) * source.stride + box.x * 4, box.width * 4)
    }
}

private func edgeMode(_ edge: blurtool_edge_t) throws(CallFailure) -> EdgeMode {
    switch edge {
    case BLURTOOL_EDGE_MIRROR: return .mirror
    case BLURTOOL_EDGE_CLAMP: return .clamp
    case BLURTOOL_EDGE_WRAP: return .wrap
    case BLURTOOL_EDGE_TRANSPARENT: return .transparent
    default: throw .argument("edge", "must be a blurtool_edge_t, not \(edge.rawValue)")
    }
}

private func blurPrecision(_ precision: blurtool_precision_t) throws(CallFailure) -> BlurPrecision {
    switch precision {
    case BLURTOOL_PRECISION_AUTO: return .auto
    case BLURTOOL_PRECISION_EXACT: return .exact
    case BLURTOOL_PRECISION_FAST: return .fast
    default: throw .argument("precision", "must be a blurtool_precision_t, not \(precision.rawValue)")
    }
}

@_cdecl("blurtool_blur")
public func blurtool_blur(
    _ workspaceHandle: OpaquePointer?, _ sourcePointer: UnsafePointer<blurtool_buffer_t>?,
    _ regionPointer: UnsafePointer<blurtool_rect_t>?, _ destinationPointer: UnsafePointer<blurtool_buffer_t>?,
    _ sigma: Double, _ edge: blurtool_edge_t, _ precision: blurtool_precision_t, _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_blur") { () throws(CallFailure) in
        var source = try CallerBuffer(sourcePointer, "source")
        let box = try region(regionPointer, in: source, "region")
        var target = try destination(destinationPointer, source: source, region: box)
        let blur = GaussianBlur(
            sigma: try finite(sigma, "sigma"), edgeMode: try edgeMode(edge), precision: try blurPrecision(precision),
            threads: try threadCount(threads))
        if GaussianKernel.usableSigma(sigma) == 0 && source.isStraight == target.buffer.isStraight {
            copyBytes(of: source, box, to: target.buffer, x: target.x, y: target.y)
            return
        }
        let scratch = workspace(workspaceHandle)
        if readsOnlyOpaque(source, region: box, reach: blur.reach, edge: blur.edgeMode, scratch) {
            (source, target.buffer) = (source.asPremultiplied, target.buffer.asPremultiplied)
        }
        let input = readWindow(source, region: box, reach: blur.reach, scratch)
        if target.buffer.isStraight {
            let result = Image(width: box.width, height: box.height)
            blur.apply(to: input.image, regionX: input.x, y: input.y, into: result, workspace: scratch)
            target.buffer.store(result, x: target.x, y: target.y)
        } else {
            let output = target.buffer.view(
                PixelBox(x: target.x, y: target.y, width: box.width, height: box.height), scratch)
            blur.apply(to: input.image, regionX: input.x, y: input.y, into: output, workspace: scratch)
        }
    }
}

private func appearance(_ value: blurtool_appearance_t) throws(CallFailure) -> Appearance {
    switch value {
    case BLURTOOL_APPEARANCE_LIGHT: return .light
    case BLURTOOL_APPEARANCE_DARK: return .dark
    default: throw .argument("appearance", "must be BLURTOOL_APPEARANCE_LIGHT or _DARK, not \(value.rawValue)")
    }
}

@_cdecl("blurtool_material")
public func blurtool_material(
    _ workspaceHandlePointer: OpaquePointer?, _ sourcePointer: UnsafePointer<blurtool_buffer_t>?,
    _ regionPointer: UnsafePointer<blurtool_rect_t>?, _ destinationPointer: UnsafePointer<blurtool_buffer_t>?,
    _ name: UnsafePointer<CChar>?, _ appearanceValue: blurtool_appearance_t, _ dim: Double, _ effect: Double,
    _ pixelsPerPoint: Double, _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_material") { () throws(CallFailure) in
        var source = try CallerBuffer(sourcePointer, "source")
        let box = try region(regionPointer, in: source, "region")
        var target = try destination(destinationPointer, source: source, region: box)
        let materialName = try string(name, "name")
        guard let (material, fixed) = MaterialCatalog.lookup(materialName) else {
            throw .argument(
                "name",
                "unknown material \(materialName.debugDescription); known: "
                    + MaterialCatalog.knownNames.joined(separator: ", "))
        }
        let amount = try finite(effect, "effect", in: 0...1)
        let scale = try finite(pixelsPerPoint, "pixels_per_point", in: 0...1000)
        let asked = try appearance(appearanceValue)
        let scratch = workspaceHandle(workspaceHandlePointer)
        scratch.recipe.set(material.recipe(for: fixed ?? asked), showing: amount)
        let effectView = MaterialEffect(
            recipe: scratch.recipe, dim: try finite(dim, "dim", in: 0...1),
            pixelsPerPoint: scale > 0
                ? scale : MaterialEffect.pixelsPerPoint(fillingScreenWith: source.width, source.height),
            threads: try threadCount(threads))
        let reach = effectView.reach
        if readsOnlyOpaque(source, region: box, reach: reach, edge: effectView.edgeMode, scratch.workspace) {
            (source, target.buffer) = (source.asPremultiplied, target.buffer.asPremultiplied)
        }
        let input = readWindow(source, region: box, reach: reach, scratch.workspace)
        let output = target.buffer.view(
            PixelBox(x: target.x, y: target.y, width: box.width, height: box.height), scratch.workspace)
        // Straight alpha, or the result landing on pixels the material still reads (in place): through scratch.
        let direct = !target.buffer.isStraight && !output.overlaps(input.image)
        let result = direct ? output : scratch.workspace.scratchImage(width: box.width, height: box.height)
        effectView.apply(to: input.image, regionX: input.x, y: input.y, into: result, workspace: scratch.workspace)
        if !direct { target.buffer.store(result, x: target.x, y: target.y, scratch.workspace) }
    }
}
