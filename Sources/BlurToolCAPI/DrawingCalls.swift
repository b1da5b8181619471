import CBlurToolAPI
import Compositor

@_cdecl("blurtool_composite")
public func blurtool_composite(
    _ workspaceHandle: OpaquePointer?, _ destinationPointer: UnsafePointer<blurtool_buffer_t>?,
    _ sourcePointer: UnsafePointer<blurtool_buffer_t>?,
    _ x: Int32, _ y: Int32, _ op: UnsafePointer<CChar>?, _ opacity: Double, _ mask: UnsafePointer<UInt8>?,
    _ maskStride: Int64, _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_composite") { () throws(CallFailure) in
        let destination = try CallerBuffer(destinationPointer, "destination")
        let source = try CallerBuffer(sourcePointer, "source")
        let compositeOperator = try compositeOperator(op)
        let alpha = try finite(opacity, "opacity", in: 0...1)
        let workers = try threadCount(threads)
        var coverage: Plane?
        if let mask {
            guard maskStride >= Int64(source.width), maskStride <= Int64(Int32.max) else {
                throw .argument(
                    "mask_stride", "must be at least the source's width, \(source.width), not \(maskStride)")
            }
            coverage = Plane(
                borrowing: UnsafeMutablePointer(mutating: mask), width: source.width, height: source.height,
                bytesPerRow: Int(maskStride))
        }
        // The rectangle drawn, in the destination; only its pixels are read and written.
        let drawn = PixelBox(x: Int(x), y: Int(y), width: source.width, height: source.height)
            .intersection(destination.whole)
        guard !drawn.isEmpty else { return }
        let scratch = workspaceHandle.map { workspace($0) }
        let sourceImage = source.premultiplied(source.whole, scratch)
        let target = destination.premultiplied(drawn, scratch)
        target.draw(
            sourceImage, x: Int(x) - drawn.x, y: Int(y) - drawn.y, operator: compositeOperator, opacity: alpha,
            mask: coverage, threads: workers)
        destination.store(target, x: drawn.x, y: drawn.y, scratch)
    }
}

/// The operator an `op` argument names (NULL: source-over).
func compositeOperator(_ op: UnsafePointer<CChar>?) throws(CallFailure) -> CompositeOperator {
    guard op != nil else { return .sourceOver }
    let name = try string(op, "op")
    guard let named = CompositeOperator(name: name) else {
        throw .argument(
            "op",
            "unknown operator \(name.debugDescription); known: "
                + CompositeOperator.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return named
}

private func resampleFilter(_ filter: blurtool_filter_t) throws(CallFailure) -> ResampleFilter {
    switch filter {
    case BLURTOOL_FILTER_NEAREST: return .nearest
    case BLURTOOL_FILTER_BILINEAR: return .bilinear
    case BLURTOOL_FILTER_CATMULL_ROM: return .catmullRom
    case BLURTOOL_FILTER_MITCHELL: return .mitchell
    case BLURTOOL_FILTER_LANCZOS3: return .lanczos3
    default: throw .argument("filter", "must be a blurtool_filter_t, not \(filter.rawValue)")
    }
}

/// The two buffers of a warp, checked not to overlap (the result is written while the source is still read).
private func warpBuffers(
    _ destinationPointer: UnsafePointer<blurtool_buffer_t>?, _ sourcePointer: UnsafePointer<blurtool_buffer_t>?
) throws(CallFailure) -> (destination: CallerBuffer, source: CallerBuffer) {
    let destination = try CallerBuffer(destinationPointer, "destination")
    let source = try CallerBuffer(sourcePointer, "source")
    guard !destination.overlaps(source) else { throw .argument("destination", "overlaps source") }
    return (destination, source)
}

/// The numbers of a matrix argument, every one finite.
func matrix(_ pointer: UnsafePointer<Double>?, count: Int) throws(CallFailure) -> [Double] {
    guard let pointer else { throw .argument("matrix", "is NULL") }
    let values = Array(UnsafeBufferPointer(start: pointer, count: count))
    for (index, value) in values.enumerated() where !value.isFinite {
        throw .argument("matrix[\(index)]", "must be a finite number, not \(value)")
    }
    return values
}

/// `warped` (nil: nothing drawn) into the destination, cleared first.
private func store(_ warped: Image?, into destination: CallerBuffer) {
    destination.store(warped ?? Image(width: destination.width, height: destination.height))
}

@_cdecl("blurtool_warp")
public func blurtool_warp(
    _ destinationPointer: UnsafePointer<blurtool_buffer_t>?, _ sourcePointer: UnsafePointer<blurtool_buffer_t>?,
    _ matrixPointer: UnsafePointer<Double>?, _ filter: blurtool_filter_t, _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_warp") { () throws(CallFailure) in
        let (destination, source) = try warpBuffers(destinationPointer, sourcePointer)
        let m = try matrix(matrixPointer, count: 6)
        let warp = AffineWarp(
            transform: AffineTransform2D(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]),
            filter: try resampleFilter(filter), edgeMode: .transparent, threads: try threadCount(threads))
        store(
            warp.apply(to: source.premultiplied(source.whole), width: destination.width, height: destination.height),
            into: destination)
    }
}

@_cdecl("blurtool_warp_3d")
public func blurtool_warp_3d(
    _ destinationPointer: UnsafePointer<blurtool_buffer_t>?, _ sourcePointer: UnsafePointer<blurtool_buffer_t>?,
    _ matrixPointer: UnsafePointer<Double>?, _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_warp_3d") { () throws(CallFailure) in
        let (destination, source) = try warpBuffers(destinationPointer, sourcePointer)
        let m = try matrix(matrixPointer, count: 16)
        let transform = Transform3D(
            m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
            m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
        let warp = PerspectiveWarp(homography: transform.homography, threads: try threadCount(threads))
        store(
            warp.apply(to: source.premultiplied(source.whole), width: destination.width, height: destination.height),
            into: destination)
    }
}
