import XCTest

@testable import Compositor

final class ParallelTests: XCTestCase {
    /// Every piece runs exactly once, on a worker in range, whatever the thread count; pieces of very uneven cost
    /// (as the perspective warp's bands are) are still all handed out.
    func testBalancedLoopRunsEveryPieceOnce() {
        for (count, threads) in [(0, 2), (1, 4), (7, 1), (95, 2), (95, 3), (1000, 8)] {
            let runs = Locked([Int](repeating: 0, count: count))
            let workers = Locked(Set<Int>())
            Parallel.forEachBalanced(count, threads: threads) { piece, worker in
                if piece % 10 == 0 { usleep(200) }
                runs.withLock { $0[piece] += 1 }
                workers.withLock { _ = $0.insert(worker) }
            }
            XCTAssertEqual(
                runs.withLock { $0 }, [Int](repeating: 1, count: count), "\(count) pieces, \(threads) threads")
            let allowed = 0..<Parallel.workers(count, threads: threads)
            XCTAssertTrue(workers.withLock { $0 }.allSatisfy(allowed.contains), "\(count) pieces, \(threads) threads")
        }
    }
}
