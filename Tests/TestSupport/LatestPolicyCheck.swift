import Darknet
import XCTest

/// Offers every frame of `frames` to a `.latest` pipeline at once, finishes it, and checks the
/// policy's contract on what comes out: results in frame order, the newest frame never dropped,
/// every frame either processed or dropped, some dropped (the network cannot take them all at
/// once), one result a processed frame. Returns the results.
public func offerAllAndCheckLatestPolicy<Result>(
    _ pipeline: FramePipeline<Result>, _ frames: [Frame], index: (Result) -> Int, statistics: (Result) -> FrameStatistics,
    file: StaticString = #filePath, line: UInt = #line
) async throws -> [Result] {
    for frame in frames { XCTAssertTrue(pipeline.offer(frame), "a .latest pipeline takes every frame", file: file, line: line) }
    pipeline.finish()
    var results: [Result] = []
    for try await result in pipeline.results { results.append(result) }
    let indices = results.map(index)
    XCTAssertEqual(indices, indices.sorted(), file: file, line: line)
    XCTAssertEqual(indices.last, frames.count - 1, "the newest frame is never dropped", file: file, line: line)
    let last = try XCTUnwrap(results.last.map(statistics), file: file, line: line)
    XCTAssertEqual(last.processed + last.dropped, frames.count, file: file, line: line)
    XCTAssertGreaterThan(last.dropped, 0, "\(frames.count) frames at once: the network cannot take them all", file: file, line: line)
    XCTAssertEqual(last.processed, results.count, file: file, line: line)
    return results
}
