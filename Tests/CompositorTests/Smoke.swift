import XCTest

final class CompositorTestsSmoke: XCTestCase {}
