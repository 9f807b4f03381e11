@testable import Darknet
import XCTest

/// The spinning helper threads of multi-threaded sessions: every worker of every job runs once,
/// on its own thread, the pool hands over work whether its helpers spin or sleep, and a job cut
/// into pieces runs every item once, with a worker that finishes early taking over part of
/// another's share.
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
        split(1000, minimumPiece: 4) { range, _ in
            for i in range { seen[i] += 1 }
        }
        XCTAssertTrue(seen.allSatisfy { $0 == 1 })
    }

    func testRangesCoverTheLoopOnceInWholeUnits() {
        let pool = WorkerPool(threads: 3)
        let owner = UnsafeMutableBufferPointer<Int>.allocate(capacity: 1000)
        let pieceLength = UnsafeMutableBufferPointer<Int>.allocate(capacity: 1000)
        defer {
            owner.deallocate()
            pieceLength.deallocate()
        }
        for (count, units) in [(1000, 1000), (1000, 7), (999, 64), (5, 5), (64, 2), (1000, 3)] {
            for workers in 2...3 {
                for finest in [false, true] {
                    owner.initialize(repeating: -1)
                    pool.runRanges(count, units: units, workers: workers, finest: finest) { piece, worker in
                        for i in piece {
                            owner[i] = owner[i] == -1 ? worker : -2  // -2: run twice
                            pieceLength[i] = piece.count
                        }
                    }
                    let label = "\(count) items in \(units) units, \(workers) workers, finest: \(finest)"
                    XCTAssertTrue(owner[..<count].allSatisfy { (0..<workers).contains($0) }, label)
                    // Pieces are whole units (count / units items, rounded either way); finest: one each.
                    let lengths = pieceLength[..<count]
                    XCTAssertGreaterThanOrEqual(lengths.min()!, count / units, label)
                    if finest { XCTAssertLessThanOrEqual(lengths.max()!, (count + units - 1) / units, label) }
                }
            }
        }
    }

    func testAWorkerThatFinishesEarlyTakesPartOfASlowOnesShare() {
        let pool = WorkerPool(threads: 2)
        let owner = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        defer { owner.deallocate() }
        owner.initialize(repeating: -1)
        // Worker 0 (the caller) starts on items 0..<32, worker 1 on 32..<64; worker 0 is slow.
        pool.runRanges(64, units: 64, workers: 2) { piece, worker in
            if worker == 0 { usleep(UInt32(piece.count) * 2000) }
            for i in piece { owner[i] = worker }
        }
        XCTAssertTrue(owner.allSatisfy { $0 == 0 || $0 == 1 })
        XCTAssertTrue(owner[..<32].contains(1), "worker 1 took none of worker 0's share")
        XCTAssertEqual(owner[32...].filter { $0 == 1 }.count, 32, "worker 1's own share is its own")
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
