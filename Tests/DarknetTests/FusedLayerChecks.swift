@_spi(Testing) @testable import Darknet
import XCTest

/// Asserts that a session keeping only `layer` (so the layer before it may compute it in the same
/// pass: a fused max pool or shortcut) gives that layer the bits of a session keeping every layer
/// (each layer apart), on 1, 2 and 3 threads.
func assertFusedLayerEqualsTheLayersApart(_ network: Network, input: [Float], layer: Int, _ message: String,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
    let apart = InferenceSession(network: network, retaining: .all)
    try apart.forward(input)
    let expected = try apart.output(ofLayer: layer).values
    for threads in [1, 2, 3] {
        let fused = InferenceSession(network: network, retaining: .layers([layer]), threads: threads)
        try fused.forward(input)
        XCTAssertEqual(try fused.output(ofLayer: layer).values, expected, "\(message), \(threads) threads", file: file, line: line)
    }
}
