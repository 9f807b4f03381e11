@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// The kernels and decoders of the eight Debian cfgs added last (`[local]`,
/// `[detection]`, `[region] tree=`, `[softmax] tree=`, `[rnn]`, `[gru]`), each run on its
/// layer's input as Darknet computed it and compared with Darknet's output of that layer:
/// reference data from `Tools/make-fixtures-debian.sh` (random weights, dog.jpg, the one-hot
/// sequence "Hello" for the recurrent cfgs). Weights are read from the random weights file at
/// the library's offsets (`WeightsWriter.layout`, from the plan), checked against the offsets
/// Darknet's own layer structs give.
final class DebianLayerKernelTests: XCTestCase {
    static let debian = DebianLayout.directory

    /// The GEMM kernels need the BLAS; without it every test fails here, with the reason.
    override func setUpWithError() throws {
        try BLAS.ensureLoaded()
    }

    // MARK: - weights layout

    /// The library's weights layout puts every layer where Darknet's `load_weights` reads it.
    func testWeightsOffsetsFollowLoadWeightsLayout() throws {
        for (name, cfg, dump) in [("yolov1-192", "yolov1-192", "yolov1-192"), ("yolov1-tiny-224", "yolov1-tiny-224", "yolov1-tiny-224"),
                                  ("t1.test", "t1.test", "t1.test"), ("yolo9000-224", "yolo9000-224", "yolo9000-224"),
                                  ("darknet9000-224", "darknet9000-224", "darknet9000-224"),
                                  ("rnn", "rnn", "rnn/step00"), ("rnn.train-1", "rnn.train-1", "rnn.train-1/step00"),
                                  ("gru", "gru", "gru/step00"), ("detection-softmax", "detection-softmax", "detection-softmax"),
                                  ("recurrent-variants", "recurrent-variants", "recurrent-variants/step00")] {
            let layout = try DebianLayout(cfg: cfg, dump: dump)
            let size = try FileManager.default.attributesOfItem(atPath: try weightsURL(name).path)[.size] as! Int
            XCTAssertEqual(layout.totalBytes, size, "\(name): the layout accounts for every byte of the weights file")
            for entry in layout.entries {
                XCTAssertEqual(layout.offsets[entry.index], entry.weights_offset, "\(name) layer \(entry.index) [\(entry.type)] offset")
                XCTAssertEqual(layout.floats[entry.index], entry.weights_floats, "\(name) layer \(entry.index) [\(entry.type)] floats")
            }
        }
    }

    // MARK: - [local]

    func testLocalConvolutionMatchesDarknet() throws {
        try compareLocal(name: "yolov1-192")
    }

    /// Unpadded and strided (size 3, stride 2, pad 0 on 16 x 16).
    func testUnpaddedStridedLocalConvolutionMatchesDarknet() throws {
        try compareLocal(name: "detection-softmax")
    }

    private func compareLocal(name: String) throws {
        let layout = try DebianLayout(name)
        let entry = try XCTUnwrap(layout.entries.first { $0.type == "local" })
        let previous = try XCTUnwrap(layout.entries.first { $0.index == entry.index - 1 })
        let section = layout.sections[entry.index]
        let size = section.int("size", 1), stride = section.int("stride", 1), pad = section.int("pad", 0)
        let filters = section.int("filters", 1)
        let activation = try XCTUnwrap(Activation(rawValue: section.string("activation", "logistic")))
        let input = try dump(name, previous.index)
        let weights = try readWeights(name, byteOffset: layout.offsets[entry.index], count: layout.floats[entry.index])
        XCTAssertEqual(LocalConvolution.outputExtent(input: previous.out_h, size: size, stride: stride, pad: pad), entry.out_h)
        XCTAssertEqual(weights.count, entry.outputs + LocalConvolution.weightCount(
            channels: previous.out_c, filters: filters, size: size, outHeight: entry.out_h, outWidth: entry.out_w))

        /// The layer's output with `parameters` (biases, then the weights of every location).
        func forward(_ parameters: [Float]) -> [Float] {
            var output = [Float](repeating: .nan, count: entry.outputs)
            var patch = [Float](repeating: 0, count: previous.out_c * size * size)
            input.withUnsafeBufferPointer { x in
                parameters.withUnsafeBufferPointer { w in
                    LocalConvolution.forward(input: x.baseAddress!, channels: previous.out_c, height: previous.out_h,
                                             width: previous.out_w, filters: filters, size: size, stride: stride, pad: pad,
                                             weights: w.baseAddress! + entry.outputs, biases: w.baseAddress!,
                                             activation: activation, patch: &patch, output: &output, kernels: .native)
                }
            }
            return output
        }
        try assertMatches(forward(weights), dump(name, entry.index), "\(name) layer \(entry.index) [local]")
        // The weights are not shared: with location 0's filters everywhere (a plain convolution)
        // the result is far from Darknet's.
        let bank = filters * previous.out_c * size * size
        var shared = Array(weights[0..<entry.outputs])
        for _ in 0..<(entry.out_h * entry.out_w) { shared += weights[entry.outputs..<(entry.outputs + bank)] }
        XCTAssertGreaterThan(maxAbsDifference(forward(shared), try dump(name, entry.index)), 1e-2)
    }

    // MARK: - [detection] (YOLOv1)

    func testYoloV1TinyDetectionsMatchDarknet() throws {
        try compareDetectionLayer(name: "yolov1-tiny-224", threshold: "0.2")
    }

    func testYoloV1DetectionsMatchDarknet() throws {
        try compareDetectionLayer(name: "yolov1-192", threshold: "0.2")
    }

    func testDetectionLayerSoftmaxMatchesDarknet() throws {
        let layout = try DebianLayout("detection-softmax")
        let (entry, section) = try layout.lastLayer("detection")
        let side = section.int("side", 7), num = section.int("num", 1), classes = section.int("classes", 1)
        XCTAssertEqual(section.int("softmax", 0), 1)
        let input = try dump("detection-softmax", entry.index - 1)
        var output = [Float](repeating: .nan, count: input.count)
        input.withUnsafeBufferPointer {
            DetectionLayerActivation.forward($0.baseAddress!, side: side, num: num, classes: classes, softmax: true, into: &output)
        }
        let expected = try dump("detection-softmax", entry.index)
        try assertMatches(output, expected, "detection-softmax layer \(entry.index) [detection] softmax=1")
        XCTAssertGreaterThan(maxAbsDifference(input[0..<(side * side * classes)], expected[0..<(side * side * classes)]), 0.1,
                             "the class scores did change")
        XCTAssertEqual(Array(input[(side * side * classes)...]), Array(expected[(side * side * classes)...]), "the rest is a copy")
    }

    /// softmax=1 and sqrt=0, on a 2 x 2 grid.
    func testSmallDetectionHeadDetectionsMatchDarknet() throws {
        try compareDetectionLayer(name: "detection-softmax", threshold: "0.05")
    }

    func testDetectionLayerRelativeBoxesAreThePixelBoxesOverTheImageSize() throws {
        let layout = try DebianLayout("t1.test")
        let (entry, section) = try layout.lastLayer("detection")
        let output = try dump("t1.test", entry.index)
        var pixels: [BoxCandidate] = [], relative: [BoxCandidate] = []
        for (units, into) in [(DetectionLayerDecoder.Units.darknetPixels, 0), (.relative, 1)] {
            var candidates: [BoxCandidate] = []
            output.withUnsafeBufferPointer {
                DetectionLayerDecoder.decodeDetection($0.baseAddress!, side: section.int("side", 7), num: section.int("num", 1),
                                                      classes: section.int("classes", 1), sqrt: section.int("sqrt", 0) != 0,
                                                      threshold: 0.2, imageWidth: 768, imageHeight: 576, units: units, into: &candidates)
            }
            if into == 0 { pixels = candidates } else { relative = candidates }
        }
        XCTAssertEqual(pixels.count, 7 * 7 * 2)
        for (p, r) in zip(pixels, relative) {
            XCTAssertEqual(p.box.x, r.box.x * 768, accuracy: 1e-3 * max(1, abs(p.box.x)))
            XCTAssertEqual(p.box.height, r.box.height * 576, accuracy: 1e-3 * max(1, abs(p.box.height)))
            XCTAssertEqual(p.probabilities, r.probabilities)
        }
    }

    // MARK: - class trees

    func testClassTreeReads9kTree() throws {
        let tree = try ClassTree(contentsOf: try TestPaths.require(TestPaths.sample("9k.tree")))
        XCTAssertEqual(tree.count, 9418)
        XCTAssertEqual(tree.groups.first?.lowerBound, 0)
        XCTAssertEqual(tree.groups.last?.upperBound, 9418)
        for (g, group) in tree.groups.enumerated() {
            XCTAssertFalse(group.isEmpty)
            if g > 0 { XCTAssertEqual(group.lowerBound, tree.groups[g - 1].upperBound, "groups are consecutive runs") }
            let parent = tree.parents[group.lowerBound]
            XCTAssertTrue(group.allSatisfy { tree.parents[$0] == parent && tree.groupOfClass[$0] == g })
            if parent >= 0 { XCTAssertEqual(tree.childGroup[parent], g) }
        }
        let parentsSet = Set(tree.parents.filter { $0 >= 0 })
        XCTAssertEqual((0..<tree.count).filter { tree.isLeaf($0) }.count, tree.count - parentsSet.count)
        XCTAssertEqual(tree.names[0], "n00002452")
    }

    func testClassTreeErrorsNameFileAndLine() {
        func error(_ text: String) -> String? {
            do { _ = try ClassTree(bytes: Array(text.utf8), file: "t.tree"); return nil } catch { return error.description }
        }
        XCTAssertEqual(error("a -1\nb x\n"), "t.tree:2: parent 'x' is not an integer")
        XCTAssertEqual(ClassTreeError(file: "t.tree", line: 3, reason: .emptyLine).localizedDescription,
                       "t.tree:3: empty line: expected 'NAME PARENT'")
        XCTAssertEqual(error("a -1\nb 1\n"), "t.tree:2: class 1 has parent 1: expected -1 or the index of an earlier line (0..<1)")
        XCTAssertEqual(error("a -1\n\nb 0\n"), "t.tree:2: empty line: expected 'NAME PARENT'")
        XCTAssertEqual(error("a -1\nb -1\nc 0\nd 1\ne 0\n"),
                       "t.tree:5: the children of class 0 are not consecutive lines (the first is on line 3)")
        XCTAssertEqual(error(""), "t.tree: no classes: a tree file has one 'NAME PARENT' line per class")
        XCTAssertEqual(error(String(repeating: "n", count: 300) + " -1\n"), "t.tree:1: class name of 300 bytes, at most 255")
        XCTAssertThrowsError(try ClassTree(contentsOf: URL(fileURLWithPath: "/nonexistent/9k.tree"))) {
            XCTAssertEqual(($0 as? FileError)?.description, "/nonexistent/9k.tree: No such file or directory")
        }
        // CRLF line ends and a missing parent (Darknet's default -1) are accepted.
        let tree = try? ClassTree(bytes: Array("a\r\nb 0\r\nc 0\r\n".utf8), file: "t.tree")
        XCTAssertEqual(tree?.parents, [-1, 0, 0])
        XCTAssertEqual(tree?.groups, [0..<1, 1..<3])
        XCTAssertEqual(tree?.childGroup, [1, -1, -1])
        // A NUL byte ends a line, as in Darknet's C strings (AlexeyAB's cfg/9k.tree has such a line).
        let padded = try? ClassTree(bytes: Array("a -1\r\nb 0\0\0\0 junk\r\n".utf8), file: "t.tree")
        XCTAssertEqual(padded?.parents, [-1, 0])
    }

    /// Darknet's walk on a small tree: roots a, b; c, d under a; e, f under c.
    func testTreePathProbabilitiesAndTopPrediction() throws {
        let tree = try ClassTree(bytes: Array("a -1\nb -1\nc 0\nd 0\ne 2\nf 2\n".utf8), file: "small.tree")
        XCTAssertEqual(tree.groups, [0..<2, 2..<4, 4..<6])
        var values: [Float] = [0.9, 0.1, 0.8, 0.2, 0.6, 0.4]
        values.withUnsafeMutableBufferPointer { tree.multiplyAlongPaths($0.baseAddress!, stride: 1, onlyLeaves: false) }
        for (got, want) in zip(values, [0.9, 0.1, 0.72, 0.18, 0.432, 0.288] as [Float]) { XCTAssertEqual(got, want, accuracy: 1e-6) }
        func top(_ threshold: Float) -> String {
            tree.names[values.withUnsafeBufferPointer { tree.topPrediction($0.baseAddress!, stride: 1, threshold: threshold) }]
        }
        XCTAssertEqual(top(0.2), "e")    // 0.9 * 0.72 * 0.432 = 0.28 > 0.2: down to the leaf
        // Darknet multiplies path probabilities again: e's own 0.432 passes 0.3, the product 0.28 does not.
        XCTAssertEqual(top(0.3), "c")
        XCTAssertEqual(top(0.95), "a")   // nothing in group 0 passes: its largest class
        var leaves: [Float] = [0.9, 0.1, 0.8, 0.2, 0.6, 0.4]
        leaves.withUnsafeMutableBufferPointer { tree.multiplyAlongPaths($0.baseAddress!, stride: 1, onlyLeaves: true) }
        XCTAssertEqual(leaves.map { $0 == 0 }, [true, false, true, false, false, false])
    }

    func testTreeSoftmaxLayerMatchesDarknet() throws {
        let layout = try DebianLayout("darknet9000-224")
        let entry = try layout.lastLayer("softmax").entry
        let tree = try ClassTree(contentsOf: try TestPaths.require(TestPaths.sample("9k.tree")))
        let input = try dump("darknet9000-224", entry.index - 1)
        let expected = try dump("darknet9000-224", entry.index)
        var output = [Float](repeating: .nan, count: input.count)
        input.withUnsafeBufferPointer {
            TreeSoftmax.forwardSoftmaxLayer($0.baseAddress!, tree: tree, temperature: Float(layout.sections[entry.index].double("temperature", 1)),
                                            into: &output)
        }
        try assertMatches(output, expected, "darknet9000 layer \(entry.index) [softmax] tree")
        XCTAssertLessThanOrEqual(maxAbsDifference(output, expected), 1e-3 * (expected.max() ?? 0))
        // Each group sums to 1 (a plain softmax over all 9418 would not).
        for group in tree.groups.prefix(50) {
            XCTAssertEqual(output[group].reduce(0, +), 1, accuracy: 1e-4)
        }
    }

    func testDarknet9000TopFiveMatchesClassifierPredict() throws {
        let layout = try DebianLayout("darknet9000-224")
        let entry = try layout.lastLayer("softmax").entry
        let tree = try ClassTree(contentsOf: try TestPaths.require(TestPaths.sample("9k.tree")))
        let names = try Detector.readLabels(try TestPaths.require(TestPaths.sample("9k.names")))
        var values = try dump("darknet9000-224", entry.index)
        values.withUnsafeMutableBufferPointer { tree.multiplyAlongPaths($0.baseAddress!, stride: 1, onlyLeaves: true) }
        let top = values.withUnsafeBufferPointer { Classifier.topK($0, count: 5) }
        let mine = top.map { String(format: "%5.2f%%: %@", values[$0] * 100, names[$0]) }
        let url = try TestPaths.require(Self.debian.appendingPathComponent("classify/darknet9000-224-dog.txt"))
        let theirs = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(mine, theirs)
        XCTAssertTrue(top.allSatisfy { tree.isLeaf($0) })
    }

    func testRegionTreeActivationMatchesDarknet() throws {
        let layout = try DebianLayout("yolo9000-224")
        let (entry, section) = try layout.lastLayer("region")
        let tree = try ClassTree(contentsOf: try TestPaths.require(TestPaths.sample("9k.tree")))
        let input = try dump("yolo9000-224", entry.index - 1)
        let expected = try dump("yolo9000-224", entry.index)
        var output = [Float](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer {
            RegionTreeActivation.forward($0.baseAddress!, anchors: section.int("num", 1), width: entry.out_w, height: entry.out_h,
                                         coords: section.int("coords", 4), classes: section.int("classes", 20),
                                         background: section.int("background", 0) != 0, tree: tree, temperature: 0, into: &output)
        }
        // Debian's Darknet divides by a temperature of 0 here: the values the tree softmax writes are NaN.
        let theirNaN = expected.indices.filter { expected[$0].isNaN }
        XCTAssertGreaterThan(theirNaN.count, 1000)
        XCTAssertEqual(output.indices.filter { output[$0].isNaN }, theirNaN, "the same values are NaN")
        let finite = expected.indices.filter { !expected[$0].isNaN }
        try assertMatches(finite.map { output[$0] }, finite.map { expected[$0] }, "yolo9000 layer \(entry.index) [region] tree")
        // Some of the box entries went through the logistic, many class entries stayed raw.
        XCTAssertTrue(finite.contains { expected[$0] != input[$0] })
        XCTAssertTrue(finite.contains { expected[$0] == input[$0] && input[$0] < 0 })
    }

    func testRegionTreeDetectionsMatchDarknet() throws {
        let layout = try DebianLayout("yolo9000-224")
        let (entry, section) = try layout.lastLayer("region")
        let tree = try ClassTree(contentsOf: try TestPaths.require(TestPaths.sample("9k.tree")))
        let names = try Detector.readLabels(try TestPaths.require(TestPaths.sample("9k.names")))
        let reference = try detectReference("yolo9000-224", threshold: "0.1")
        let anchors = section.string("anchors", "").split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
        let num = section.int("num", 1)
        XCTAssertEqual(anchors.count, 2 * num)
        let classes = section.int("classes", 20)
        let output = try dump("yolo9000-224", entry.index)
        let spec = RegionSpec(classes: classes, num: num, anchors: (0..<num).map { (anchors[2 * $0], anchors[2 * $0 + 1]) },
                              softmax: true, tree: tree)
        XCTAssertEqual(section.int("coords", 4), spec.coords)
        XCTAssertEqual(section.int("background", 0), 0)
        let shape = TensorShape(channels: entry.out_c, height: entry.out_h, width: entry.out_w)
        var candidates: [BoxCandidate] = []
        output.withUnsafeBufferPointer {
            RegionDecoder.decode($0, shape: shape, spec: spec, tree: tree, threshold: 0.1, hierThreshold: 0.5, into: &candidates)
        }
        XCTAssertTrue(try dump("yolo9000-224", entry.index).elementsEqual(output) { $0.bitPattern == $1.bitPattern },
                      "the decoding leaves the layer's output as it is")
        XCTAssertEqual(candidates.count, num * entry.out_w * entry.out_h)
        let decoded = candidates
        YoloDecoder.correct(&candidates, geometry: LetterboxGeometry(imageWidth: reference.width, imageHeight: reference.height,
                                                                     networkWidth: 224, networkHeight: 224))
        NonMaximumSuppression.apply(&candidates, classes: classes, threshold: 0.45)
        let detections = DetectionDecoder.detections(from: candidates, labels: names, threshold: 0.1,
                                                     imageWidth: reference.width, imageHeight: reference.height)
        assertSame(detections, reference, "yolo9000-224")
        // hier_thresh matters: with 0 the walk goes on below where 0.5 stops, to other classes.
        var deep: [BoxCandidate] = []
        output.withUnsafeBufferPointer {
            RegionDecoder.decode($0, shape: shape, spec: spec, tree: tree, threshold: 0.1, hierThreshold: 0, into: &deep)
        }
        var deeper = 0
        for (shallow, deep) in zip(decoded, deep) {
            guard let a = shallow.probabilities.firstIndex(where: { $0 > 0 }) else { continue }
            var b = try XCTUnwrap(deep.probabilities.firstIndex { $0 > 0 })
            if b != a { deeper += 1 }
            while b != a && b >= 0 { b = tree.parents[b] }
            XCTAssertEqual(b, a, "the class found with hier_thresh 0 is the one found with 0.5 or below it")
        }
        XCTAssertGreaterThan(deeper, 0)
    }

    // MARK: - [rnn], [gru]

    func testRnnStepsMatchDarknet() throws {
        try compareRecurrent(name: "rnn")
    }

    func testRnnTrainStepsMatchDarknet() throws {
        try compareRecurrent(name: "rnn.train-1", wholeSequence: "rnn.train-5")
    }

    func testGruStepsMatchDarknet() throws {
        try compareRecurrent(name: "gru")
    }

    /// `[rnn] shortcut=1` with relu, `[gru] tanh=1` with batch norm.
    func testRecurrentVariantsMatchDarknet() throws {
        try compareRecurrent(name: "recurrent-variants", layers: 2)
    }

    // MARK: - helpers

    private static let text = Array("Hello".utf8)

    /// With `wholeSequence`, also against that dump of one Darknet forward over all the steps
    /// (the cfg with `time_steps` = the text's length), step `k` at offset `k * outputs`.
    private func compareRecurrent(name: String, layers: Int = 3, wholeSequence: String? = nil,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let layout = try DebianLayout(cfg: name, dump: "\(name)/step00")
        var reader = try WeightsSlices(url: weightsURL(name))
        let recurrent = layout.entries.filter { $0.type == "rnn" || $0.type == "gru" }
        XCTAssertEqual(recurrent.count, layers, file: file, line: line)
        var cells: [Int: ReferenceRecurrentLayer] = [:]
        for entry in recurrent {
            let section = layout.sections[entry.index]
            let inputs = entry.index == 0 ? layout.netInputs : layout.entries[entry.index - 1].outputs
            cells[entry.index] = try ReferenceRecurrentLayer(section: section, inputs: inputs, offset: layout.offsets[entry.index], reader: &reader)
        }
        var worst: Float = 0
        for (step, character) in Self.text.enumerated() {
            let folder = "\(name)/step\(String(format: "%02d", step))"
            let input = try floats(Self.debian.appendingPathComponent("\(folder)/input.bin"))
            XCTAssertEqual(input.firstIndex(of: 1), Int(character), "step \(step) input is the one-hot '\(character)'", file: file, line: line)
            for entry in recurrent {
                let cell = try XCTUnwrap(cells[entry.index])
                let x = entry.index == 0 ? input : try dump(folder, entry.index - 1)
                let expected = try dump(folder, entry.index)
                let stateBefore = cell.state
                let output = cell.step(x)
                worst = max(worst, maxAbsDifference(output, expected))
                try assertMatches(output, expected, "\(name) step \(step) layer \(entry.index) [\(entry.type)]", file: file, line: line)
                if let wholeSequence {
                    let whole = try dump(wholeSequence, entry.index)
                    XCTAssertEqual(whole.count, Self.text.count * entry.outputs, file: file, line: line)
                    try assertMatches(output, Array(whole[(step * entry.outputs)..<((step + 1) * entry.outputs)]),
                                      "\(wholeSequence) (one forward) step \(step) layer \(entry.index)", file: file, line: line)
                }
                if step > 0 {
                    // The carried state matters: the same step from a zero state is far off.
                    let fresh = cell.copy(withState: [Float](repeating: 0, count: stateBefore.count))
                    XCTAssertGreaterThan(maxAbsDifference(fresh.step(x), expected), 1e-2,
                                         "\(name) step \(step) layer \(entry.index) does not depend on the state", file: file, line: line)
                }
            }
        }
        print("\(name): max abs difference over \(Self.text.count) steps: \(worst)")
    }

    private func compareDetectionLayer(name: String, threshold: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let layout = try DebianLayout(name)
        let (entry, section) = try layout.lastLayer("detection", file: file, line: line)
        let reference = try detectReference(name, threshold: threshold)
        let names = try Detector.readLabels(try TestPaths.require(TestPaths.sample("voc.names")))
        let classes = section.int("classes", 1), side = section.int("side", 7), num = section.int("num", 1)
        // The dump is the layer's output: after the per-cell softmax when the cfg asks for one.
        let output = try dump(name, entry.index)
        XCTAssertEqual(output.count, side * side * (classes + 5 * num), file: file, line: line)
        var candidates: [BoxCandidate] = []
        output.withUnsafeBufferPointer {
            DetectionLayerDecoder.decodeDetection($0.baseAddress!, side: side, num: num, classes: classes, sqrt: section.int("sqrt", 0) != 0,
                                                  threshold: Float(threshold)!, imageWidth: reference.width, imageHeight: reference.height,
                                                  units: .darknetPixels, into: &candidates)
        }
        NonMaximumSuppression.apply(&candidates, classes: classes, threshold: 0.45)
        let detections = DetectionDecoder.detections(from: candidates, labels: names, threshold: Float(threshold)!,
                                                     imageWidth: reference.width, imageHeight: reference.height)
        assertSame(detections, reference, name, file: file, line: line)
    }

    private func assertSame(_ detections: [Detection], _ reference: DetectionTests.Reference, _ name: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(reference.detections.count, 3, "\(name): Darknet finds something to compare", file: file, line: line)
        XCTAssertEqual(detections.count, reference.detections.count, "\(name) detections", file: file, line: line)
        for (k, (mine, theirs)) in zip(detections, reference.detections).enumerated() {
            let same = mine.classIndex == theirs.class && mine.label == theirs.label && abs(mine.confidence - theirs.prob) <= 1e-4
                && abs(mine.rect.left - theirs.x) <= 1 && abs(mine.rect.top - theirs.y) <= 1
                && abs(mine.rect.width - theirs.w) <= 1 && abs(mine.rect.height - theirs.h) <= 1
            XCTAssertTrue(same, "\(name) #\(k): mine \(mine.label) \(mine.confidence) \(mine.rect), Darknet's \(theirs.label) \(theirs.prob) \(theirs.x),\(theirs.y),\(theirs.w),\(theirs.h)",
                          file: file, line: line)
        }
    }

    private func detectReference(_ name: String, threshold: String) throws -> DetectionTests.Reference {
        let url = try TestPaths.require(Self.debian.appendingPathComponent("detect/\(name)-thresh-\(threshold).json"))
        return try JSONDecoder().decode(DetectionTests.Reference.self, from: Data(contentsOf: url))
    }

    private func assertMatches(_ actual: [Float], _ expected: [Float], _ what: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(actual.count, expected.count, "\(what): size", file: file, line: line)
        let difference = maxAbsDifference(actual, expected)
        XCTAssertLessThanOrEqual(difference, LayerReference.tolerance, "\(what) differs from Darknet by \(difference)", file: file, line: line)
        let spread = (expected.max() ?? 0) - (expected.min() ?? 0)
        XCTAssertGreaterThan(spread, 1e-3, "\(what): the reference is nearly constant", file: file, line: line)
        print("\(what): max abs difference \(difference)")
    }

    private func weightsURL(_ name: String) throws -> URL {
        try TestPaths.require(Self.debian.appendingPathComponent("weights/\(name).weights"))
    }

    private func dump(_ folder: String, _ index: Int) throws -> [Float] {
        try floats(Self.debian.appendingPathComponent(folder).appendingPathComponent(String(format: "layer%03d.bin", index)))
    }

    private func floats(_ url: URL) throws -> [Float] {
        try readFloatFile(try TestPaths.require(url))
    }

    private func readWeights(_ name: String, byteOffset: Int, count: Int) throws -> [Float] {
        var reader = try WeightsSlices(url: weightsURL(name))
        return try reader.read(at: byteOffset, count: count)
    }
}
