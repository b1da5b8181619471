import XCTest

final class BlurToolCLITestsSmoke: XCTestCase {}
