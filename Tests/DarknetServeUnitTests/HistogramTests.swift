@testable import DarknetServe
import XCTest

/// The latency histogram's quantiles, which the status page shows (p50, p90, p99).
final class HistogramTests: XCTestCase {
    func testQuantilesFromBuckets() {
        var histogram = Histogram()
        XCTAssertNil(histogram.quantile(0.5))
        for _ in 0..<10 { histogram.observe(0.02) }   // the (0.01, 0.025] bucket
        XCTAssertEqual(histogram.quantile(0.5)!, 0.0175, accuracy: 1e-9)
        XCTAssertEqual(histogram.quantile(1)!, 0.025, accuracy: 1e-9)
        histogram.observe(30)   // +Inf: the largest finite bound
        XCTAssertEqual(histogram.quantile(0.99), 10)
    }
}
