import XCTest

final class ImageCodecsTestsSmoke: XCTestCase {}
