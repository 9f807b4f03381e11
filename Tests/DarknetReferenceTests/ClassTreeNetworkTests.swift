@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `darknet9000` (`[softmax] tree=`) and `yolo9000` (`[region] tree=`) run end to end against
/// Debian's Darknet (random weights, `Tools/make-fixtures-debian.sh`): every layer, `darknet
/// classifier predict`'s top 5, and the hierarchical detection decoding.
///
/// Debian's CPU forward of `[region] tree=` writes NaN and leaves class scores raw (see
/// `DebianRegionTreeActivation`); the library runs what Darknet's GPU forward computes instead,
/// checked here on the values Debian does compute (box and objectness entries) and, for the
/// class entries, against a softmax per group of siblings computed in double precision from
/// Darknet's own input to the layer.
final class ClassTreeNetworkTests: XCTestCase {
    static let debian = DebianLayout.directory

    private func url(_ path: String) throws -> URL { try TestPaths.require(Self.debian.appendingPathComponent(path)) }

    private func tree() throws -> ClassTree {
        try ClassTree(contentsOf: try TestPaths.require(TestPaths.sample("9k.tree")))
    }

    func testDarknet9000EveryLayerMatchesDarknet() throws {
        let compared = try LayerReference.compare(cfg: try url("cfg/darknet9000-224.cfg"), weights: try url("weights/darknet9000-224.weights"),
                                                  input: try url("input/dog-224x224.bin"), reference: try url("darknet9000-224"),
                                                  expectAtLeast: 20)
        XCTAssertTrue(compared.contains { $0.type == "softmax" }, "the tree softmax is compared")
    }

    /// `Classifier` prints what `darknet classifier predict` printed (the Debian binary, dog.jpg).
    func testDarknet9000TopFiveIsClassifierPredicts() throws {
        let classifier = try Classifier(cfg: try url("cfg/darknet9000-224.cfg"), weights: try url("weights/darknet9000-224.weights"),
                                        names: try TestPaths.require(TestPaths.sample("9k.names")))
        XCTAssertEqual(classifier.hierarchy?.count, 9418)
        let image = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let top = try classifier.classify(image, top: 5)
        let mine = top.map { String(format: "%5.2f%%: %@", $0.probability * 100, $0.label) }
        let theirs = try String(contentsOf: try url("classify/darknet9000-224-dog.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(mine, theirs)
        let tree = try tree()
        XCTAssertTrue(top.allSatisfy { tree.isLeaf($0.classIndex) }, "only leaves are predicted")
    }

    func testYolo9000EveryLayerBeforeTheRegionMatchesDarknet() throws {
        let layout = try DebianLayout("yolo9000-224")
        let region = try layout.lastLayer("region").entry.index
        let compared = try LayerReference.compare(cfg: try url("cfg/yolo9000-224.cfg"), weights: try url("weights/yolo9000-224.weights"),
                                                  input: try url("input/dog-224x224.bin"), reference: try url("yolo9000-224"),
                                                  expectAtLeast: 20, skipping: [region])
        XCTAssertEqual(compared.map(\.index).max(), region - 1)
    }

    func testYolo9000RegionLayerIsDarknetsGPUForward() throws {
        let layout = try DebianLayout("yolo9000-224")
        let entry = try layout.lastLayer("region").entry
        let spec = try NetworkSpec.parse(contentsOf: try url("cfg/yolo9000-224.cfg")).loadingClassTrees()
        guard case .region(let region) = spec.layers[entry.index].kind, let tree = region.tree else {
            return XCTFail("layer \(entry.index) is a [region] with a tree")
        }
        let network = try Network(spec: spec, weights: [UInt8](Data(contentsOf: try url("weights/yolo9000-224.weights"))))
        let session = InferenceSession(network: network, retaining: .layers([entry.index - 1, entry.index]))
        try session.forward(try readFloatFile(try url("input/dog-224x224.bin")))
        let input = try session.output(ofLayer: entry.index - 1).values
        let output = try session.output(ofLayer: entry.index).values
        let darknet = try readFloatFile(try url("yolo9000-224/layer\(String(format: "%03d", entry.index)).bin"))
        let cells = entry.out_w * entry.out_h, entries = region.entries
        XCTAssertEqual(output.count, region.num * entries * cells)

        // Box x, y and objectness: the logistic, as Debian computes it wherever it did not write NaN.
        var boxValues = 0
        for n in 0..<region.num {
            for e in [0, 1, 4] {
                for cell in 0..<cells {
                    let i = (n * entries + e) * cells + cell
                    guard !darknet[i].isNaN else { continue }
                    XCTAssertEqual(output[i], darknet[i], accuracy: LayerReference.tolerance, "anchor \(n) entry \(e) cell \(cell)")
                    boxValues += 1
                }
            }
        }
        XCTAssertGreaterThan(boxValues, region.num * 3 * cells / 2)

        // Class entries: a softmax over each group of siblings, for each anchor and cell.
        var largest: Double = 0
        for n in 0..<region.num {
            for cell in 0..<cells {
                let base = (n * entries + 5) * cells + cell
                for group in tree.groups {
                    let raw = group.map { Double(input[base + $0 * cells]) }
                    let top = raw.max()!
                    let sum = raw.reduce(0) { $0 + exp($1 - top) }
                    for (k, c) in group.enumerated() {
                        largest = max(largest, abs(Double(output[base + c * cells]) - exp(raw[k] - top) / sum))
                    }
                }
            }
        }
        XCTAssertLessThanOrEqual(largest, 1e-5, "tree softmax vs double precision")
        XCTAssertFalse(output.contains { $0.isNaN })
    }

    /// Detection through `Detector`: the hierarchical decoding (one class per box, confidence the
    /// objectness) and `hierThreshold`, which stops the walk down the tree earlier or later.
    func testYolo9000DetectionsWalkTheTreeWithHierThreshold() throws {
        let detector = try Detector(cfg: try url("cfg/yolo9000-224.cfg"), weights: try url("weights/yolo9000-224.weights"),
                                    names: try TestPaths.require(TestPaths.sample("9k.names")))
        let image = try PlanarImage(contentsOf: try TestPaths.require(TestPaths.sample("dog.jpg")))
        let tree = try tree()
        let shallow = try detector.detect(image, options: DetectionOptions(threshold: 0.3, hierThreshold: 0.9, nmsThreshold: 0))
        let deep = try detector.detect(image, options: DetectionOptions(threshold: 0.3, hierThreshold: 0, nmsThreshold: 0))
        XCTAssertGreaterThan(shallow.count, 10)
        XCTAssertEqual(shallow.count, deep.count, "one class per box either way")
        var deeper = 0
        for (a, b) in zip(shallow, deep) {
            XCTAssertEqual(a.box, b.box)
            XCTAssertEqual(a.confidence, a.objectness, "a tree head reports the objectness")
            var c = b.classIndex
            if c != a.classIndex { deeper += 1 }
            while c != a.classIndex && c >= 0 { c = tree.parents[c] }
            XCTAssertEqual(c, a.classIndex, "\(b.label) lies under \(a.label) in the tree")
            XCTAssertTrue(tree.isLeaf(b.classIndex), "with hier_thresh 0 the walk ends at a leaf")
        }
        XCTAssertGreaterThan(deeper, 0)
    }

    func testTreeFileIsFoundBesideTheCfgAndErrorsNameTheLine() throws {
        // Debian's cfgs name the installed tree; a checkout's data/ folder beside cfg/ is found too.
        let candidates = ClassTreeReference.candidates("/usr/share/darknet/data/9k.tree", cfg: TestPaths.darknetCfg.appendingPathComponent("yolo9000.cfg").path)
        XCTAssertTrue(candidates.contains(TestPaths.sample("9k.tree").standardizedFileURL.path)
                      || candidates.contains { URL(fileURLWithPath: $0).standardizedFileURL == TestPaths.sample("9k.tree").standardizedFileURL },
                      "\(candidates)")
        let net = "[net]\nwidth=8\nheight=8\nchannels=3\n"
        // Parsing keeps the reference; loading reads the file.
        let parsed = try NetworkSpec.parse(text: net + "[softmax]\ntree=missing/none.tree\n", file: "t.cfg")
        guard case .softmax(let softmax) = parsed.layers[0].kind else { return XCTFail("not a softmax") }
        XCTAssertEqual(softmax.treeFile, ClassTreeReference(path: "missing/none.tree", cfg: "t.cfg", line: 6))
        XCTAssertNil(softmax.tree)
        XCTAssertThrowsError(try parsed.loadingClassTrees()) {
            XCTAssertEqual(($0 as? CfgError)?.description,
                           "t.cfg:6: 'tree': invalid value 'missing/none.tree', expected a class tree file; tried missing/none.tree")
        }
        // A FIFO named as the tree (or as any file the library reads) is refused, not waited on.
        let fifo = try temporaryDirectory("tree-fifo").appendingPathComponent("tree").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try NetworkSpec.parse(text: net + "[softmax]\ntree=\(fifo)\n", file: "t.cfg").loadingClassTrees()) {
            XCTAssertEqual(($0 as? CfgError)?.description,
                           "t.cfg:6: 'tree': invalid value '\(fifo)', expected a readable class tree (\(fifo): is not a regular file)")
        }
        XCTAssertThrowsError(try NetworkSpec.parse(contentsOf: URL(fileURLWithPath: fifo))) {
            XCTAssertEqual(($0 as? FileError)?.reason, FileError.notRegularReason)
        }
        let tree = TestPaths.sample("9k.tree").path
        XCTAssertThrowsError(try NetworkSpec.parse(text: net + "[region]\nclasses=80\nnum=1\ntree=\(tree)\n", file: "t.cfg")
                                .loadingClassTrees()) {
            XCTAssertEqual(($0 as? CfgError)?.description,
                           "t.cfg:8: 'tree': invalid value '\(tree)', expected a tree of classes=80 classes, found 9418")
        }
    }
}
