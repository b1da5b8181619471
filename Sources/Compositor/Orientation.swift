/// The eight EXIF/TIFF orientations: how the stored pixels must be turned to show the picture upright.
/// Raw values are the EXIF tag values 1...8.
public enum Orientation: Int, CaseIterable, Sendable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the main diagonal (transposed).
    case leftMirrored = 5
    /// Stored turned 90° counter-clockwise: turn 90° clockwise to show.
    case right = 6
    /// Mirrored along the anti-diagonal (transversed).
    case rightMirrored = 7
    /// Stored turned 90° clockwise: turn 90° counter-clockwise to show.
    case left = 8

    /// Invalid values (0, 9, 65535 in the wild) count as upright, as browsers and libvips do.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// True when showing the picture swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension Image {
    /// A new image with the stored pixels turned so the picture shows upright.
    public func oriented(_ orientation: Orientation) -> Image {
        if orientation == .up { return copy() }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        let result = Image(width: outWidth, height: outHeight)
        // For each destination pixel (x, y), the source pixel is (sx, sy) = origin + x * stepX + y * stepY.
        let (originX, originY, xStep, yStep): (Int, Int, (Int, Int), (Int, Int))
        let w = width - 1
        let h = height - 1
        switch orientation {
        case .up: (originX, originY, xStep, yStep) = (0, 0, (1, 0), (0, 1))
        case .upMirrored: (originX, originY, xStep, yStep) = (w, 0, (-1, 0), (0, 1))
        case .down: (originX, originY, xStep, yStep) = (w, h, (-1, 0), (0, -1))
        case .downMirrored: (originX, originY, xStep, yStep) = (0, h, (1, 0), (0, -1))
        case .leftMirrored: (originX, originY, xStep, yStep) = (0, 0, (0, 1), (1, 0))
        case .right: (originX, originY, xStep, yStep) = (0, h, (0, -1), (1, 0))
        case .rightMirrored: (originX, originY, xStep, yStep) = (w, h, (0, -1), (-1, 0))
        case .left: (originX, originY, xStep, yStep) = (w, 0, (0, 1), (-1, 0))
        }
        let sourceWords = UnsafeMutableRawPointer(baseAddress)
        let sourceStride = bytesPerRow
        for y in 0..<outHeight {
            let destination = UnsafeMutableRawPointer(result.row(y)).assumingMemoryBound(to: UInt32.self)
            var sx = originX + y * yStep.0
            var sy = originY + y * yStep.1
            for x in 0..<outWidth {
                destination[x] = sourceWords.loadUnaligned(fromByteOffset: sy * sourceStride + sx * 4, as: UInt32.self)
                sx += xStep.0
                sy += xStep.1
            }
        }
        return result
    }
}
