import XCTest

/// How close a layer output must be to Darknet's (a correct float32 port lands near 1e-5):
/// `LayerReference` and the command-line `forward` tests hold every layer to it.
public let darknetLayerTolerance: Float = 1e-3

/// Largest absolute difference between two equally long collections (infinity if their
/// lengths differ or either holds NaN).
public func maxAbsDifference(_ a: some Collection<Float>, _ b: some Collection<Float>) -> Float {
    guard a.count == b.count else { return .infinity }
    var worst: Float = 0
    for (x, y) in zip(a, b) {
        let d = abs(x - y)
        if d.isNaN { return .infinity }
        worst = max(worst, d)
    }
    return worst
}

/// Asserts `actual` has as many elements as `expected`, each within `tolerance` of its own.
public func assertClose(_ actual: [Float], _ expected: [Float], tolerance: Float, _ message: @autoclosure () -> String = "",
                        file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.count, expected.count, "element count \(message())", file: file, line: line)
    let worst = maxAbsDifference(actual, expected)
    XCTAssertLessThanOrEqual(worst, tolerance, "max abs difference \(worst) > \(tolerance) \(message())", file: file, line: line)
}
