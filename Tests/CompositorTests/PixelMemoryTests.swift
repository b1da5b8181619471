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
