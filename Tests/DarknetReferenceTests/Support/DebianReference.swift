@_spi(Testing) @testable import Darknet
import Foundation
import TestSupport
import XCTest

// Readers for the reference data of Tools/make-fixtures-debian.sh (DebianLayerKernelTests):
// layer dumps with their cfg, weights runs at byte offsets, and recurrent layers rebuilt from
// their [connected] sub-layers.

/// A fixture directory's `layers.json` with the cfg it ran, and each layer's place in the weights
/// file as the library lays it out (`WeightsWriter.layout`, from the plan; Darknet's
/// `load_weights` order: see `Tools/darknet-reference/RECURRENT_AND_V1.md`).
struct DebianLayout {
    /// `Fixtures/generated/debian` (Tools/make-fixtures-debian.sh).
    static let directory = TestPaths.fixtures.appendingPathComponent("debian")

    struct Entry: Decodable {
        let index: Int
        let type: String
        let file: String
        let out_c: Int, out_h: Int, out_w: Int
        let outputs: Int
        let weights_offset: Int
        let weights_floats: Int
    }
    private struct Index: Decodable { let layers: [Entry] }

    let entries: [Entry]
    /// The cfg's layer sections (without `[net]`), by layer index.
    let sections: [DebianSection]
    /// Inputs of the network (`inputs=`, or width * height * channels).
    let netInputs: Int
    /// Byte offset and float count of every layer's parameters, by layer index (the library's layout).
    let offsets: [Int]
    let floats: [Int]
    let totalBytes: Int

    init(cfg: String, dump: String) throws {
        let dir = DebianLayout.directory
        let index = try TestPaths.require(dir.appendingPathComponent("\(dump)/layers.json"))
        entries = try JSONDecoder().decode(Index.self, from: Data(contentsOf: index)).layers
        let cfgURL = try TestPaths.require(dir.appendingPathComponent("cfg/\(cfg).cfg"))
        let document = try CfgParser.parse(bytes: [UInt8](Data(contentsOf: cfgURL)), file: cfgURL.path)
        let all = document.sections.map(DebianSection.init)
        let net = all[0]
        sections = Array(all.dropFirst())
        let channels = net.int("channels", 0)
        netInputs = net.int("inputs", net.int("width", 0) * net.int("height", 0) * channels)
        // save_weights' header: major 0, minor 2, revision, 64-bit seen.
        let plan = try NetworkPlan(spec: try NetworkSpec.parse(contentsOf: cfgURL))
        let arrays = WeightsWriter.layout(of: plan, headerBytes: 20)
        var offsets: [Int] = [], floats: [Int] = []
        var cursor = 20
        for layer in plan.layers {
            let stored = arrays.filter { $0.layer == layer.index }
            offsets.append(stored.first?.offset ?? cursor)
            floats.append(stored.reduce(0) { $0 + $1.count })
            cursor = offsets[layer.index] + 4 * floats[layer.index]
        }
        self.offsets = offsets
        self.floats = floats
        totalBytes = cursor
    }

    /// The fixture `name`, made from the cfg of the same name.
    init(_ name: String) throws { try self.init(cfg: name, dump: name) }

    /// The last layer of `type` (`detection`, `region`, `softmax`) and its cfg section.
    func lastLayer(_ type: String, file: StaticString = #filePath,
                   line: UInt = #line) throws -> (entry: Entry, section: DebianSection) {
        let entry = try XCTUnwrap(entries.last { $0.type == type }, "no [\(type)] layer", file: file, line: line)
        return (entry, sections[entry.index])
    }
}

/// One cfg section's keys (the first of a repeated key, as Darknet's lookup takes).
struct DebianSection {
    let name: String
    let values: [String: String]

    init(_ section: CfgSection) {
        name = section.name
        var values: [String: String] = [:]
        for entry in section.entries where values[entry.key] == nil { values[entry.key] = entry.value }
        self.values = values
    }

    func string(_ key: String, _ fallback: String) -> String { values[key] ?? fallback }
    func int(_ key: String, _ fallback: Int) -> Int { values[key].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? fallback }
    func double(_ key: String, _ fallback: Double) -> Double {
        values[key].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? fallback
    }
}

/// Float runs read from a weights file at byte offsets.
struct WeightsSlices {
    let handle: FileHandle

    init(url: URL) throws { handle = try FileHandle(forReadingFrom: url) }

    mutating func read(at byteOffset: Int, count: Int) throws -> [Float] {
        try handle.seek(toOffset: UInt64(byteOffset))
        let data = try XCTUnwrap(try handle.read(upToCount: 4 * count))
        XCTAssertEqual(data.count, 4 * count, "weights file ends early")
        precondition(1.littleEndian == 1, "weights files are little-endian; this host is not")
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = data.copyBytes(to: buffer) / 4
        }
    }
}

/// A `[connected]` sub-layer's parameters read in `load_connected_weights` order (biases,
/// weights, then scales, rolling mean, rolling variance with batch norm) and folded as the
/// library folds `[connected]` batch norm.
final class OwnedSublayer {
    let weights: UnsafeMutablePointer<Float>
    let biases: UnsafeMutablePointer<Float>
    let sublayer: ConnectedSublayer

    init(inputs: Int, outputs: Int, batchNormalize: Bool, activation: Activation, at offset: inout Int, reader: inout WeightsSlices) throws {
        var b = try reader.read(at: offset, count: outputs); offset += 4 * outputs
        var w = try reader.read(at: offset, count: outputs * inputs); offset += 4 * outputs * inputs
        if batchNormalize {
            let scales = try reader.read(at: offset, count: outputs); offset += 4 * outputs
            let means = try reader.read(at: offset, count: outputs); offset += 4 * outputs
            let variances = try reader.read(at: offset, count: outputs); offset += 4 * outputs
            BatchNormFolding.fold(weights: &w, biases: &b, rowLength: inputs,
                                  BatchNormFolding.Statistics(scales: scales, means: means, variances: variances), dialect: .original)
        }
        weights = .allocate(capacity: w.count)
        weights.initialize(from: w, count: w.count)
        biases = .allocate(capacity: b.count)
        biases.initialize(from: b, count: b.count)
        sublayer = ConnectedSublayer(inputs: inputs, outputs: outputs, weights: weights, biases: biases, activation: activation,
                                     kernels: .native)
    }

    deinit {
        weights.deallocate()
        biases.deallocate()
    }
}

/// An `[rnn]` or `[gru]` layer with its sub-layers and a state carried from step to step.
final class ReferenceRecurrentLayer {
    let kind: String
    let sublayers: [OwnedSublayer]
    let shortcut: Bool, tanh: Bool
    var state: [Float]

    private init(kind: String, sublayers: [OwnedSublayer], shortcut: Bool, tanh: Bool, state: [Float]) {
        self.kind = kind
        self.sublayers = sublayers
        self.shortcut = shortcut
        self.tanh = tanh
        self.state = state
    }

    convenience init(section: DebianSection, inputs: Int, offset: Int, reader: inout WeightsSlices) throws {
        let outputs = section.int("output", 1)
        let norm = section.int("batch_normalize", 0) != 0
        var cursor = offset
        var sublayers: [OwnedSublayer] = []
        if section.name == "rnn" {
            let activation = try XCTUnwrap(Activation(rawValue: section.string("activation", "logistic")))
            // load_weights: input layer, self layer, output layer
            for n in [inputs, outputs, outputs] {
                sublayers.append(try OwnedSublayer(inputs: n, outputs: outputs, batchNormalize: norm, activation: activation,
                                                   at: &cursor, reader: &reader))
            }
        } else {
            // load_weights: wz, wr, wh (state side), then uz, ur, uh (input side); all linear
            for n in [outputs, outputs, outputs, inputs, inputs, inputs] {
                sublayers.append(try OwnedSublayer(inputs: n, outputs: outputs, batchNormalize: norm, activation: .linear,
                                                   at: &cursor, reader: &reader))
            }
        }
        self.init(kind: section.name, sublayers: sublayers, shortcut: section.int("shortcut", 0) != 0,
                  tanh: section.int("tanh", 0) != 0, state: [Float](repeating: 0, count: outputs))
    }

    func copy(withState state: [Float]) -> ReferenceRecurrentLayer {
        ReferenceRecurrentLayer(kind: kind, sublayers: sublayers, shortcut: shortcut, tanh: tanh, state: state)
    }

    /// One step on `x`, updating the state.
    func step(_ x: [Float]) -> [Float] {
        let n = state.count
        var output = [Float](repeating: .nan, count: n)
        var scratch = [Float](repeating: 0, count: 4 * n)
        let s = sublayers.map(\.sublayer)
        x.withUnsafeBufferPointer { x in
            state.withUnsafeMutableBufferPointer { state in
                if kind == "rnn" {
                    RecurrentCells.rnnStep(x.baseAddress!, input: s[0], self: s[1], output: s[2], shortcut: shortcut,
                                           state: state.baseAddress!, scratch: &scratch, output: &output)
                } else {
                    RecurrentCells.gruStep(x.baseAddress!, uz: s[3], ur: s[4], uh: s[5], wz: s[0], wr: s[1], wh: s[2], tanh: tanh,
                                           state: state.baseAddress!, scratch: &scratch, output: &output)
                }
            }
        }
        return output
    }
}
