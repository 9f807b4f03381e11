@_spi(Testing) @testable import Darknet
import TestSupport
import XCTest

/// A Winograd convolution adds the `[shortcut]` after it in its output transform when the session
/// does not keep the convolution's output (`NetworkPlan.fusibleShortcuts`,
/// `ArenaLayout.fusedShortcuts`): the shortcut's output must keep every bit of the two layers run
/// apart, and no layer of any layout may write where it reads.
final class ShortcutFusionTests: XCTestCase {
    /// A 1x1 convolution, the 3x3 one (`activation`) and a shortcut adding the first to it.
    private static func cfg(height: Int, width: Int, channels: Int, activation: String) -> String {
        "[net]\nwidth=\(width)\nheight=\(height)\nchannels=\(channels)\n"
            + "[convolutional]\nfilters=\(channels)\nsize=1\nactivation=leaky\n"
            + "[convolutional]\nbatch_normalize=1\nfilters=\(channels)\nsize=3\npad=1\nactivation=\(activation)\n"
            + "[shortcut]\nfrom=-2\nactivation=linear\n"
    }

    func testEveryWinogradPathAddingTheShortcutEqualsTheTwoLayersApart() throws {
        var small = ConvolutionTuning()
        small.fewTileWeightLimit = 0  // small outputs take F(2x2, 3x3), large ones the 36 GEMMs
        small.bandWeightLimit = 0
        small.largeBandWeightLimit = 0
        var bfloat16 = PlanOptions(precision: .bfloat16)
        bfloat16.reducedKernels = .portable
        let shapes = [(8, 8, 64), (26, 26, 32), (104, 104, 32), (40, 40, 128)]
        var algorithms = Set<ConvolutionAlgorithm>()
        for kernels in CPUFeatures.current.supportedVectorKernels {
            for (base, tuning) in [(PlanOptions(), ConvolutionTuning()), (PlanOptions(), small), (bfloat16, ConvolutionTuning())] {
                for (n, (height, width, channels)) in shapes.enumerated() {
                    for activation in [Activation.leaky, .mish, .linear] {
                        var options = base
                        options.vectorKernels = kernels
                        options.tuning = tuning
                        let spec = try NetworkSpec.parse(text: Self.cfg(height: height, width: width, channels: channels,
                                                                        activation: activation.rawValue), file: "fused\(n).cfg")
                        let network = try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: UInt64(n)),
                                                  options: options)
                        let algorithm = try XCTUnwrap(network.plan.layers[1].algorithm)
                        XCTAssertTrue(algorithm.isWinograd, "\(spec.file): \(algorithm)")
                        algorithms.insert(algorithm)
                        XCTAssertEqual(network.plan.fusibleShortcuts, [2])
                        XCTAssertEqual(ArenaLayout(plan: network.plan, retaining: .layers([2])).fusedShortcuts, [2])
                        XCTAssertEqual(ArenaLayout(plan: network.plan, retaining: .all).fusedShortcuts, [])
                        var generator = SplitMix64(seed: 70 + UInt64(n))
                        let input = (0..<network.inputShape.count).map { _ in generator.nextFloat(in: -2...2) }
                        try assertFusedLayerEqualsTheLayersApart(network, input: input, layer: 2,
                                                                 "\(algorithm), \(height)x\(width)x\(channels), \(activation), \(kernels)")
                    }
                }
            }
        }
        XCTAssertEqual(algorithms, [.winogradFewTiles, .winogradBands, .winogradF23, .winograd, .bfloat16WinogradF23,
                                    .bfloat16WinogradF33])
    }

    /// Shortcuts that are not the plain sum of one same-shaped source, or whose convolution is read
    /// by another layer or computed otherwise, stay separate passes.
    func testOnlyPlainSumsAfterAWinogradConvolutionReadByNothingElseAreFusible() throws {
        func fusible(_ shortcut: String, after: String = "", strategy: ConvolutionStrategy = .fastest) throws -> Set<Int> {
            let text = "[net]\nwidth=26\nheight=26\nchannels=32\n" + String(repeating: "[convolutional]\nfilters=32\nsize=1\nactivation=leaky\n", count: 2)
                + "[convolutional]\nfilters=32\nsize=3\npad=1\nactivation=leaky\n[shortcut]\n" + shortcut + after
            return try NetworkPlan(spec: try NetworkSpec.parse(text: text, file: "fusible.cfg"),
                                   options: PlanOptions(convolutionStrategy: strategy)).fusibleShortcuts
        }
        XCTAssertEqual(try fusible("from=-2\n"), [3])
        XCTAssertEqual(try fusible("from=-2\nactivation=leaky\n"), [], "an activation on the sum")
        XCTAssertEqual(try fusible("from=-2\nalpha=0.5\n"), [], "a weighted sum")
        XCTAssertEqual(try fusible("from=-2\nbeta=2\n"), [], "a weighted sum")
        XCTAssertEqual(try fusible("from=-1\n"), [], "the convolution's own output")
        XCTAssertEqual(try fusible("from=-2\n", after: "[route]\nlayers=-2\n"), [], "another reader of the convolution")
        XCTAssertEqual(try fusible("from=-2\n", strategy: .im2colOnly), [], "not a Winograd path")
        XCTAssertEqual(try fusible("from=-2,-3\n"), [], "several sources")
    }

    /// For every layer of every Darknet cfg Debian ships and of AlexeyAB's YOLOv4 family, with
    /// shortcuts and max pools fused or not: what its step writes (its output, and a fused pool's)
    /// overlaps nothing it reads (its sources, and a fused shortcut's other source).
    func testNoStepWritesWhereItReads() throws {
        let darknet = try FileManager.default.contentsOfDirectory(at: try TestPaths.require(TestPaths.darknetCfg),
                                                                  includingPropertiesForKeys: nil)
        let alexeyAB = ["yolov4.cfg", "yolov4-tiny.cfg", "yolov4-sam-mish.cfg"].map {
            TestPaths.weights.appendingPathComponent("alexeyab/\($0)")
        }
        let cfgs = darknet.filter { $0.pathExtension == "cfg" }.sorted { $0.path < $1.path } + alexeyAB
        var fusedShortcuts = 0, fusedPools = 0, notPlanned: [String] = []
        for cfg in cfgs {
            let plan: NetworkPlan
            do {
                plan = try NetworkPlan(spec: try NetworkSpec.parse(contentsOf: try TestPaths.require(cfg)))
            } catch {
                notPlanned.append("\(cfg.lastPathComponent) (\(error))")
                continue
            }
            for selection in [LayerSelection.detection, .all, .layers(Set(stride(from: 0, to: plan.layers.count, by: 3)))] {
                let layout = ArenaLayout(plan: plan, retaining: selection)
                fusedShortcuts += layout.fusedShortcuts.count
                func range(_ index: Int) -> Range<Int> {
                    let offset = index < 0 ? layout.inputOffset : layout.outputOffsets[index]
                    return offset..<offset + (index < 0 ? plan.inputShape : plan.layers[index].outputShape).count
                }
                for layer in plan.layers where !layout.fusedShortcuts.contains(layer.index) {
                    var writes = [layer.index], reads = layer.sources
                    let next = layer.index + 1
                    if plan.fusibleMaxpools.contains(next) && !layout.retained.contains(layer.index) {
                        writes.append(next)
                        fusedPools += 1
                    }
                    if layout.fusedShortcuts.contains(next) { reads.append(plan.layers[next].sources[1]) }
                    for written in writes {
                        for read in reads {
                            XCTAssertFalse(range(written).overlaps(range(read)),
                                           "\(cfg.lastPathComponent), \(selection): layer \(layer.index) writes \(written) over \(read)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(fusedShortcuts, 0, "some shortcut fused")
        XCTAssertGreaterThan(fusedPools, 0, "some max pool fused")
        XCTAssertGreaterThanOrEqual(cfgs.count - notPlanned.count, 40)
        print("ShortcutFusionTests: \(cfgs.count - notPlanned.count) cfgs' layouts checked (\(fusedShortcuts) fused shortcuts, "
              + "\(fusedPools) fused pools)" + (notPlanned.isEmpty ? "" : "; not planned, so not checked: "
              + notPlanned.joined(separator: "; ")))
    }
}
