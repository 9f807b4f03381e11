@testable import DarknetServe
import Foundation
import XCTest

/// The server's two stages: the next request is prepared while a forward pass runs, and the
/// requests held between the stages stay bounded.
final class RequestPipelineTests: XCTestCase {
    /// Events in the order they happened, from any thread.
    private final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ event: String) { lock.withLock { list.append(event) } }
        var all: [String] { lock.withLock { list } }
    }

    func testTheNextRequestIsPreparedWhileAWorkerRuns() throws {
        let pipeline = RequestPipeline(capacity: 1, workers: 1, name: "test")
        defer { pipeline.close(timeout: .seconds(10)) }
        let events = Events()
        let release = DispatchSemaphore(value: 0)
        let firstRunning = expectation(description: "the first request runs")
        let secondPrepared = expectation(description: "the second request is prepared")
        let allDetected = expectation(description: "every admitted request is detected")
        allDetected.expectedFulfillmentCount = 3
        func submit(_ index: Int) -> Bool {
            pipeline.submit { _ in
                events.add("prepare \(index)")
                if index == 2 { secondPrepared.fulfill() }
                return {
                    events.add("detect \(index)")
                    if index == 1 {
                        firstRunning.fulfill()
                        release.wait()
                    }
                    allDetected.fulfill()
                }
            }
        }
        XCTAssertTrue(submit(1))
        XCTAssertTrue(submit(2))
        wait(for: [firstRunning, secondPrepared], timeout: 10)
        // Request 1 runs (held), request 2 is prepared and waits for the worker holding its
        // preparation thread, so request 3 waits in the queue and a fourth is refused.
        XCTAssertTrue(submit(3))
        let deadline = Date(timeIntervalSinceNow: 10)
        while pipeline.depth != (waiting: 1, running: 2), Date() < deadline { usleep(1000) }
        XCTAssertTrue(pipeline.depth == (waiting: 1, running: 2), "\(pipeline.depth)")
        XCTAssertFalse(submit(4), "admitted beyond the queue's capacity")
        XCTAssertEqual(Set(events.all), ["prepare 1", "detect 1", "prepare 2"], "request 3 started before request 1 finished")
        release.signal()
        wait(for: [allDetected], timeout: 10)
        let order = events.all
        XCTAssertEqual(order.filter { $0.hasPrefix("detect") }, ["detect 1", "detect 2", "detect 3"])
        XCTAssertLessThan(try XCTUnwrap(order.firstIndex(of: "prepare 3")), try XCTUnwrap(order.firstIndex(of: "detect 3")))
    }

    func testARequestAnsweredWhilePreparedNeverReachesAWorker() throws {
        let pipeline = RequestPipeline(capacity: 4, workers: 1, name: "test")
        let events = Events()
        let done = expectation(description: "both requests finished")
        done.expectedFulfillmentCount = 2
        XCTAssertTrue(pipeline.submit { _ in
            events.add("refused")
            done.fulfill()
            return nil
        })
        XCTAssertTrue(pipeline.submit { _ in { events.add("detected"); done.fulfill() } })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(events.all, ["refused", "detected"])
        XCTAssertTrue(pipeline.close(timeout: .seconds(10)))
        XCTAssertFalse(pipeline.submit { _ in nil }, "admitted after close")
    }

    func testAFinishedRequestIsReleasedAtOnce() {
        final class Payload: Sendable {}
        let pipeline = RequestPipeline(capacity: 4, workers: 1, name: "test")
        defer { pipeline.close(timeout: .seconds(10)) }
        weak var released: Payload?
        let done = expectation(description: "detected")
        do {
            let payload = Payload()
            released = payload
            XCTAssertTrue(pipeline.submit { _ in { withExtendedLifetime(payload) {}; done.fulfill() } })
        }
        wait(for: [done], timeout: 10)
        let deadline = Date(timeIntervalSinceNow: 10)
        while released != nil, Date() < deadline { usleep(1000) }
        XCTAssertNil(released, "the queues hold a finished request (and its image) until they next compact")
    }
}
