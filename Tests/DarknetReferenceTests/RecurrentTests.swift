import Darknet
import Foundation
import TestSupport
import XCTest

/// `rnn`, `rnn.train`, `gru` (Debian's cfgs) and a cfg with the options they leave out, against
/// Debian's Darknet: five time steps of the one-hot characters of "Hello" through one session,
/// the state carried from each forward pass to the next as `darknet rnn generate` carries it,
/// every layer of every step compared. References: `Tools/make-fixtures-debian.sh`.
final class RecurrentTests: XCTestCase {
    static let debian = TestPaths.fixtures.appendingPathComponent("debian")

    private struct Entry: Decodable {
        let index: Int
        let type: String
        let file: String
    }
    private struct Index: Decodable { let layers: [Entry] }

    func testRNN() throws { try compareSteps("rnn") }
    /// rnn.train at one time step a forward (as shipped it asks for 576 steps a batch of 128).
    func testRNNTrain() throws { try compareSteps("rnn.train-1") }
    func testGRU() throws { try compareSteps("gru") }
    /// `[rnn] shortcut=1 activation=relu batch_normalize=1`, `[gru] tanh=1 batch_normalize=1`.
    func testRecurrentVariants() throws { try compareSteps("recurrent-variants") }

    /// `[lstm]`: three stacked with batch norm (the shape of AlexeyAB's lstm.train.cfg, narrower).
    func testLSTMStack() throws { try compareSteps("lstm-stack", in: Self.lstmCRNN) }
    /// `[crnn]` with the original's keys on a 1x1 image (shortcut=1), an `[lstm]` without batch norm.
    func testLSTMAndCRNNOnVectors() throws { try compareSteps("lstm-crnn-vector", in: Self.lstmCRNN) }
    /// `[crnn]` on five 20x12 images (batch norm; shortcut=1 with relu): the original's swap of
    /// width and height included.
    func testCRNNOnImages() throws { try compareSteps("crnn-image", in: Self.lstmCRNN) }

    static let lstmCRNN = TestPaths.fixtures.appendingPathComponent("debian-lstm-crnn")

    private func compareSteps(_ name: String, in root: URL = debian, steps: Int = 5, file: StaticString = #filePath,
                              line: UInt = #line) throws {
        let d = root
        let network = try Network(cfg: try TestPaths.require(d.appendingPathComponent("cfg/\(name).cfg"), file: file, line: line),
                                  weights: try TestPaths.require(d.appendingPathComponent("weights/\(name).weights"), file: file, line: line))
        let session = InferenceSession(network: network, retaining: .all)
        var fresh: InferenceSession?
        var largest: Float = 0
        for step in 0..<steps {
            let directory = d.appendingPathComponent(String(format: "%@/step%02d", name, step))
            let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: try TestPaths.require(
                directory.appendingPathComponent("layers.json"), file: file, line: line)))
            XCTAssertEqual(index.layers.count, network.plan.layers.count, "\(name) step \(step): every layer", file: file, line: line)
            let input = try readFloatFile(directory.appendingPathComponent("input.bin"))
            try session.forward(input)
            var perLayer: [String] = []
            for entry in index.layers {
                XCTAssertEqual(entry.type, network.plan.layers[entry.index].spec.kind.sectionName, file: file, line: line)
                let expected = try readFloatFile(directory.appendingPathComponent(entry.file))
                let actual = try session.output(ofLayer: entry.index).values
                XCTAssertEqual(actual.count, expected.count, "\(name) step \(step) layer \(entry.index) size", file: file, line: line)
                let difference = maxAbsDifference(actual, expected)
                largest = max(largest, difference)
                perLayer.append(String(format: "%d %@ %.1e", entry.index, entry.type, difference))
                XCTAssertLessThanOrEqual(difference, LayerReference.tolerance,
                                         "\(name) step \(step) layer \(entry.index) [\(entry.type)] differs from Darknet by \(difference)",
                                         file: file, line: line)
            }
            print("\(name) step \(step): " + perLayer.joined(separator: ", "))
            // From the second step on, the state matters: a session without it gives other values.
            if step >= 1 {
                let stateless = fresh ?? InferenceSession(network: network, retaining: .all)
                stateless.resetState()
                try stateless.forward(input)
                let last = network.plan.layers.count - 1
                let expected = try readFloatFile(directory.appendingPathComponent(index.layers[last].file))
                XCTAssertGreaterThan(maxAbsDifference(try stateless.output(ofLayer: last).values, expected), LayerReference.tolerance,
                                     "\(name) step \(step): the carried state changes the output", file: file, line: line)
                fresh = stateless
            }
        }
        print(String(format: "%@: %d steps, largest difference from Darknet %.2g", name, steps, largest))
        session.resetState()
        try session.forward(try readFloatFile(d.appendingPathComponent("\(name)/step00/input.bin")))
        let first = try readFloatFile(d.appendingPathComponent("\(name)/step00/layer000.bin"))
        XCTAssertLessThanOrEqual(maxAbsDifference(try session.output(ofLayer: 0).values, first), LayerReference.tolerance,
                                 "\(name): resetState starts a new sequence", file: file, line: line)
    }
}
