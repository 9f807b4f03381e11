import Darknet
import Foundation
import XCTest

extension XCTestCase {
    /// Every result of a pipeline's `stream` and the error that ended it, if any, waiting on
    /// this thread (at most `timeout` seconds).
    func collectResults(_ stream: AsyncThrowingStream<FrameResult, any Error>, timeout: TimeInterval = 300)
        -> (results: [FrameResult], error: (any Error)?) {
        let done = expectation(description: "results")
        let box = ResultBox()
        Task {
            do {
                for try await result in stream { box.results.append(result) }
            } catch {
                box.error = error
            }
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return (box.results, box.error)
    }
}

/// Results gathered by a task, read after it is done.
private final class ResultBox: @unchecked Sendable {
    var results: [FrameResult] = []
    var error: (any Error)?
}
