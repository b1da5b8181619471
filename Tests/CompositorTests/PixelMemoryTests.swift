import Dispatch
import XCTest

@testable import Compositor

#if canImport(Glibc)
    import Glibc
#endif

final class PixelMemoryTests: XCTestCase {
    private var savedLimit = 0
    private let block = 8 << 20

    override func setUp() {
        savedLimit = PixelMemory.reuseLimit
        PixelMemory.releaseReusableMemory()
    }

    override func tearDown() {
        PixelMemory.reuseLimit = savedLimit
    }

    func testReleasedBlockIsHandedToTheNextRequestOfItsSize() {
        let first = PixelMemory.allocate(byteCount: block)
        PixelMemory.release(first)
        XCTAssertEqual(PixelMemory.reusableBytes, block)
        let second = PixelMemory.allocate(byteCount: block - 1000)  // rounds up to the same 2 MiB pages
        XCTAssertEqual(second, first)
        XCTAssertEqual(PixelMemory.reusableBytes, 0)
        PixelMemory.release(second)
    }

    func testKeptBlockServesOnlyRequestsOfAboutItsSize() {
        PixelMemory.release(PixelMemory.allocate(byteCount: block))
        let half = PixelMemory.allocate(byteCount: block / 2)  // would waste half the block
        let larger = PixelMemory.allocate(byteCount: block + 1)  // does not fit
        XCTAssertEqual(PixelMemory.reusableBytes, block)
        let slightlySmaller = PixelMemory.allocate(byteCount: block * 4 / 5)
        XCTAssertEqual(PixelMemory.reusableBytes, 0)
        for pointer in [half, larger, slightlySmaller] { PixelMemory.release(pointer) }
    }

    func testLimitKeepsTheMostRecentlyReleasedBlocks() {
        PixelMemory.reuseLimit = 2 * block + block / 2
        let blocks = (0..<3).map { _ in PixelMemory.allocate(byteCount: block) }
        for pointer in blocks { PixelMemory.release(pointer) }
        XCTAssertEqual(PixelMemory.reusableBytes, 2 * block)
        let reused = PixelMemory.allocate(byteCount: block)
        XCTAssertEqual(reused, blocks[2])
        PixelMemory.release(reused)
        PixelMemory.reuseLimit = block
        XCTAssertEqual(PixelMemory.reusableBytes, block, "lowering the limit frees the oldest at once")
        PixelMemory.reuseLimit = 0
        XCTAssertEqual(PixelMemory.reusableBytes, 0)
        PixelMemory.release(PixelMemory.allocate(byteCount: block))
        XCTAssertEqual(PixelMemory.reusableBytes, 0, "a zero limit keeps nothing")
    }

    func testSmallAndForeignBlocksAreFreedNotKept() {
        PixelMemory.release(PixelMemory.allocate(byteCount: 1000))
        PixelMemory.release(malloc(block)!)  // as an image adopted from a C decoder
        XCTAssertEqual(PixelMemory.reusableBytes, 0)
    }

    func testImageInReusedMemoryStartsTransparent() {
        let side = 1024  // 4 MiB of pixels
        let dirty = Image(width: side, height: side, fill: Pixel(red: 9, green: 9, blue: 9, alpha: 9))
        let address = dirty.baseAddress
        _ = consume dirty
        XCTAssertEqual(PixelMemory.reusableBytes, side * side * 4)
        let fresh = Image(width: side, height: side)
        XCTAssertEqual(fresh.baseAddress, address, "the released block was reused")
        for y in stride(from: 0, to: side, by: 7) {
            for x in stride(from: 0, to: side, by: 13) { XCTAssertEqual(fresh[x, y], .transparent) }
        }
    }

    func testConcurrentAllocationKeepsTheBooksBalanced() {
        PixelMemory.reuseLimit = 24 << 20
        let tracked = PixelMemory.trackedBlockCount
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var state = UInt64(worker + 1)
            var held: [UnsafeMutableRawPointer] = []
            for _ in 0..<300 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let size = [100_000, 200_000, 1 << 20, 5 << 20, 6 << 20][Int(state >> 33) % 5]
                let pointer = PixelMemory.allocate(byteCount: size)
                pointer.storeBytes(of: UInt8(worker), as: UInt8.self)  // memory is usable
                held.append(pointer)
                if held.count > 3 { PixelMemory.release(held.removeFirst()) }
            }
            for pointer in held { PixelMemory.release(pointer) }
        }
        XCTAssertEqual(PixelMemory.trackedBlockCount, tracked)
        XCTAssertLessThanOrEqual(PixelMemory.reusableBytes, 24 << 20)
        XCTAssertGreaterThan(PixelMemory.reusableBytes, 0)
    }
}

/// Sizes from input must not trap: a refused allocation is an error the CLI and the scene renderer can report.
final class CheckedAllocationTests: XCTestCase {
    func testImpossibleSizesThrowInsteadOfTrapping() {
        XCTAssertThrowsError(try Image(checkedWidth: -1, height: 5)) { error in
            XCTAssertEqual(error as? PixelMemory.Failure, .invalidSize(width: -1, height: 5))
        }
        XCTAssertThrowsError(try Image(checkedWidth: Int.max / 2, height: 3)) { error in
            XCTAssertEqual(error as? PixelMemory.Failure, .invalidSize(width: Int.max / 2, height: 3))
        }
        // 256 TiB: past the 128 TiB of user address space x86-64 gives a process, so the system refuses it
        // whatever its overcommit setting.
        XCTAssertThrowsError(try Image(checkedWidth: 1 << 23, height: 1 << 23)) { error in
            XCTAssertEqual(error as? PixelMemory.Failure, .outOfMemory(byteCount: 1 << 48))
            XCTAssertEqual("\(error)", "out of memory allocating 281474976710656 bytes of pixels")
        }
        XCTAssertThrowsError(try Plane(checkedWidth: 1 << 24, height: 1 << 24)) { error in
            XCTAssertEqual(error as? PixelMemory.Failure, .outOfMemory(byteCount: 1 << 48))
        }
        XCTAssertNil(PixelMemory.allocateIfPossible(byteCount: Int.max))
        XCTAssertNil(PixelMemory.allocateIfPossible(byteCount: -1))
    }

    func testCheckedImagesAreTransparentAndUsable() throws {
        let image = try Image(checkedWidth: 300, height: 200)
        XCTAssertEqual(image.bytesPerRow, 1200)
        XCTAssertTrue(image.hasSamePixels(as: Image(width: 300, height: 200)))
        image.fill(RGBAColor(red: 1, green: 0, blue: 0), width: 300, height: 200)
        XCTAssertEqual(image[299, 199], Pixel(red: 255, green: 0, blue: 0))
        let plane = try Plane(checkedWidth: 3, height: 2, fill: 7)
        XCTAssertEqual(plane[2, 1], 7)
        let empty = try Image(checkedWidth: 0, height: 0)
        XCTAssertEqual(empty.pixelCount, 0)
        // Released into the reuse pool like any image's memory, and handed out again.
        let block = PixelMemory.allocateIfPossible(byteCount: 8 << 20)
        XCTAssertNotNil(block)
        block.map(PixelMemory.release)
    }
}
