@testable import Darknet
import XCTest

/// The spinning helper threads of multi-threaded sessions: every worker of every job runs once,
/// on its own thread, and the pool hands over work whether its helpers spin or sleep.
final class WorkerPoolTests: XCTestCase {
    func testEveryWorkerOfEveryJobRunsExactlyOnce() {
        let pool = WorkerPool(threads: 3)
        XCTAssertEqual(pool.threads, 3)
        let runs = UnsafeMutableBufferPointer<Int>.allocate(capacity: 5 * 16)
        defer { runs.deallocate() }
        for job in 0..<2000 {
            let count = 1 + job % 5  // 1 ... 5: fewer workers than threads, and more (run by the caller)
            runs.initialize(repeating: 0)
            pool.run(count) { worker in runs[worker * 16] += 1 }  // one cache line per worker
            for worker in 0..<5 {
                XCTAssertEqual(runs[worker * 16], worker < count ? 1 : 0, "job \(job), worker \(worker) of \(count)")
            }
            if job % 500 == 499 { usleep(5000) }  // past the spin: the helpers block, then must wake
        }
    }

    func testSplitsOverThePoolCoverTheLoopOnce() {
        let split = ThreadSplit(threads: 2)
        let seen = UnsafeMutableBufferPointer<Int>.allocate(capacity: 1000)
        defer { seen.deallocate() }
        seen.initialize(repeating: 0)
        split(1000, minimumPerThread: 4) { range, _ in
            for i in range { seen[i] += 1 }
        }
        XCTAssertTrue(seen.allSatisfy { $0 == 1 })
    }

    func testAPoolStopsWhetherItsHelpersSpinOrSleep() {
        for pause: useconds_t in [0, 5000] {
            let pool = WorkerPool(threads: 4)
            pool.run(4) { _ in }
            usleep(pause)
            _ = pool  // deinit joins the helpers; a hang here fails the test run
        }
    }
}
