import Compositor
import ImageCodecs
import XCTest

@testable import BlurToolCLI

/// An encoder that runs out of memory was asked for a size too large for the machine: 73 naming the size, not 70.
final class ImageWritingTests: XCTestCase {
    func testOutOfMemoryIsRecognisedFromEitherLibrary() {
        XCTAssertTrue(ImageWriting.isOutOfMemory(.outOfMemory("for 20000x20000 pixels")))
        XCTAssertTrue(ImageWriting.isOutOfMemory(.encodingFailed("out of memory for the encoded PNG")))
        XCTAssertTrue(ImageWriting.isOutOfMemory(.encodingFailed("Insufficient memory (case 4)")))
        XCTAssertFalse(ImageWriting.isOutOfMemory(.encodingFailed("the image is empty")))
        XCTAssertFalse(ImageWriting.isOutOfMemory(.corrupt("out of memory")), "only the encoder's failures")
    }

    func testOtherEncoderFailuresStayInternalErrors() {
        let empty = Image(width: 0, height: 0)
        XCTAssertThrowsError(
            try ImageWriting.encode(empty, as: .png, request: RenderRequest(input: "in.png"), outputPath: "o.png")
        ) { error in
            XCTAssertEqual((error as? ToolFailure)?.code, .internalError)
        }
    }
}
