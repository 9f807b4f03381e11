@testable import Darknet
import XCTest

/// The frame policies, step by step: exact drops, order and back-pressure.
final class FrameSchedulerTests: XCTestCase {
    typealias Scheduler = FrameScheduler<Int, Int>

    func testLatestKeepsOnlyTheNewestWaitingFrame() {
        var s = Scheduler(policy: .latest)
        XCTAssertTrue(isAccepted(s.arrive(0, index: 0)))
        XCTAssertEqual(s.startPreprocess(), 0)
        XCTAssertTrue(isAccepted(s.arrive(1, index: 1)))
        guard case .replaced(1) = s.arrive(2, index: 2) else { return XCTFail("frame 1 should be dropped") }
        XCTAssertNil(s.startPreprocess(), "one preprocessing at a time")
        XCTAssertNil(s.finishPreprocess(0))
        XCTAssertEqual(s.startForward(), 0)
        XCTAssertEqual(s.startPreprocess(), 2, "prepared while the network is busy")
        XCTAssertNil(s.finishPreprocess(2))
        XCTAssertTrue(isAccepted(s.arrive(3, index: 3)))
        XCTAssertEqual(s.startPreprocess(), 3)
        XCTAssertEqual(s.finishPreprocess(3), 2, "a newer prepared frame replaces the older one")
        XCTAssertNil(s.startForward(), "the network is busy")
        s.finishForward()
        XCTAssertEqual(s.startForward(), 3)
        s.finishForward()
        s.finish()
        XCTAssertTrue(s.isDrained)
        XCTAssertEqual(s.received, 4)
        XCTAssertEqual(s.dropped, 2)
        XCTAssertEqual(s.processed, 2)
    }

    func testEveryHoldsTheProducerBackAndDropsNothing() {
        var s = Scheduler(policy: .every, capacity: 2)
        XCTAssertTrue(isAccepted(s.arrive(0, index: 0)))
        XCTAssertTrue(isAccepted(s.arrive(1, index: 1)))
        XCTAssertTrue(isFull(s.arrive(2, index: 2)))
        XCTAssertEqual(s.received, 2, "a refused frame is not counted")
        XCTAssertEqual(s.startPreprocess(), 0)
        XCTAssertTrue(isAccepted(s.arrive(2, index: 2)))
        XCTAssertTrue(isFull(s.arrive(3, index: 3)))
        XCTAssertNil(s.finishPreprocess(0))
        XCTAssertNil(s.startPreprocess(), "the prepared slot is taken: no frame is prepared ahead of it")
        XCTAssertEqual(s.startForward(), 0)
        XCTAssertEqual(s.startPreprocess(), 1)
        XCTAssertTrue(isAccepted(s.arrive(3, index: 3)))
        var order: [Int] = [0]
        XCTAssertNil(s.finishPreprocess(1))
        s.finishForward()
        while let frame = s.startForward() {
            order.append(frame)
            if let next = s.startPreprocess() { XCTAssertNil(s.finishPreprocess(next)) }
            s.finishForward()
        }
        XCTAssertEqual(order, [0, 1, 2, 3])
        XCTAssertEqual(s.dropped, 0)
        s.finish()
        XCTAssertTrue(s.isDrained)
    }

    func testStrideTakesEveryNthIndex() {
        var s = Scheduler(policy: .stride(3), capacity: 100)
        var kept: [Int] = []
        for index in 0..<10 {
            if isAccepted(s.arrive(index, index: index)) { kept.append(index) }
        }
        XCTAssertEqual(kept, [0, 3, 6, 9])
        XCTAssertEqual(s.dropped, 6)
        XCTAssertEqual(s.received, 10)
        // A full queue refuses only frames it would keep.
        var t = Scheduler(policy: .stride(2), capacity: 1)
        XCTAssertTrue(isAccepted(t.arrive(0, index: 0)))
        guard case .skipped = t.arrive(1, index: 1) else { return XCTFail("odd index skipped") }
        XCTAssertTrue(isFull(t.arrive(2, index: 2)))
    }

    /// A scripted 60 fps camera against a 30 ms network, simulated with exact times: under
    /// `.latest` the network always takes the newest frame it can, so no result lags more than
    /// a preprocess and two forward times (waiting for the busy network, then its own pass),
    /// the lag at the end is the lag at the start, and every frame is processed or dropped.
    func testLatestLagDoesNotGrowOnAScriptedCamera() {
        let interval = 16_667, preprocess = 1_000, forward = 30_000  // microseconds
        var s = Scheduler(policy: .latest)
        var time = 0
        var nextArrival = 0, arrivals = 0
        var preprocessDone: (frame: Int, at: Int)?
        var forwardDone: (frame: Int, at: Int)?
        var lags: [Int] = []
        let frames = 300
        while arrivals < frames || !s.isDrained {
            // The next event: an arrival, the end of a preprocess, or the end of a forward.
            let candidates = [arrivals < frames ? nextArrival : Int.max, preprocessDone?.at ?? Int.max, forwardDone?.at ?? Int.max]
            time = candidates.min()!
            if let done = forwardDone, done.at == time {
                lags.append(time - done.frame * interval)
                s.finishForward()
                forwardDone = nil
            }
            if let done = preprocessDone, done.at == time {
                _ = s.finishPreprocess(done.frame)
                preprocessDone = nil
            }
            if arrivals < frames && nextArrival == time {
                _ = s.arrive(arrivals, index: arrivals)
                arrivals += 1
                nextArrival += interval
                if arrivals == frames { s.finish() }
            }
            if preprocessDone == nil, let frame = s.startPreprocess() { preprocessDone = (frame, time + preprocess) }
            if forwardDone == nil, let frame = s.startForward() { forwardDone = (frame, time + forward) }
        }
        XCTAssertEqual(s.processed + s.dropped, frames)
        XCTAssertEqual(s.processed, lags.count)
        XCTAssertLessThanOrEqual(lags.max()!, preprocess + 2 * forward)
        func p95(_ values: ArraySlice<Int>) -> Int { values.sorted()[values.count * 95 / 100] }
        // The two rates beat against each other, so single lags vary by phase; the p95 does not drift.
        XCTAssertLessThanOrEqual(abs(p95(lags.prefix(50)) - p95(lags.suffix(50))), preprocess,
                                 "p95 lag of the last 50 results within 1 ms of the first 50's")
        // The network is never idle while a frame is ready: 30 ms per frame over 5 s.
        XCTAssertGreaterThanOrEqual(s.processed, frames * interval / forward - 1)
    }

    func testRateMeterAveragesIntervals() {
        var meter = RateMeter()
        let start = ContinuousClock.now
        XCTAssertEqual(meter.rate, 0)
        meter.record(start)
        XCTAssertEqual(meter.rate, 0)
        meter.record(start + .milliseconds(100))  // 10 fps
        XCTAssertEqual(meter.rate, 10, accuracy: 1e-9)
        meter.record(start + .milliseconds(150))  // 50 ms: the average interval moves a tenth of the way
        XCTAssertEqual(meter.rate, 1 / (0.1 + 0.1 * (0.05 - 0.1)), accuracy: 1e-9)
    }

    private func isAccepted(_ arrival: Scheduler.Arrival) -> Bool {
        if case .accepted = arrival { return true }
        return false
    }

    private func isFull(_ arrival: Scheduler.Arrival) -> Bool {
        if case .full = arrival { return true }
        return false
    }
}
