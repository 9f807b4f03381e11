@testable import Darknet
import TestSupport
import XCTest

final class PlanTests: XCTestCase {
    private func plan(_ name: String, size: Int? = nil, strategy: ConvolutionStrategy = .fastest) throws -> NetworkPlan {
        let url = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent(name))
        var text = try String(contentsOf: url, encoding: .utf8)
        if let size {
            text = text.replacingOccurrences(of: "width=608", with: "width=\(size)").replacingOccurrences(of: "height=608", with: "height=\(size)")
        }
        return try NetworkPlan(spec: try NetworkSpec.parse(text: text, file: name), options: PlanOptions(convolutionStrategy: strategy))
    }

    func testBillionsOfFlopsMatchDarknetsSummary() throws {
        XCTAssertEqual(Double(try plan("yolov3-tiny.cfg").flops) / 1e9, 5.565, accuracy: 0.001)
        XCTAssertEqual(Double(try plan("yolov3.cfg", size: 416).flops) / 1e9, 65.864, accuracy: 0.001)
        XCTAssertEqual(Double(try plan("yolov3.cfg").flops) / 1e9, 140.692, accuracy: 0.001)
    }

    func testYoloV3TinyShapes() throws {
        let plan = try plan("yolov3-tiny.cfg")
        XCTAssertEqual(plan.layers.count, 24)
        XCTAssertEqual(plan.layers[11].outputShape, TensorShape(channels: 512, height: 13, width: 13), "2x2/1 maxpool keeps the size")
        XCTAssertEqual(plan.layers[16].outputShape, TensorShape(channels: 255, height: 13, width: 13))
        XCTAssertEqual(plan.layers[20].outputShape, TensorShape(channels: 384, height: 26, width: 26))
        XCTAssertEqual(plan.layers[20].sources, [19, 8])
        XCTAssertEqual(plan.layers[23].outputShape, TensorShape(channels: 255, height: 26, width: 26))
        XCTAssertEqual(try self.plan("yolov3-tiny.cfg", strategy: .im2colOnly).workspaceCount, 16 * 9 * 208 * 208,
                       "the largest im2col matrix is layer 2's")
        XCTAssertEqual(plan.layers[0].algorithm, .slidingWindow)
        XCTAssertEqual(plan.layers[2].algorithm, .slidingWindow)
        XCTAssertEqual(plan.layers[4].algorithm, .winogradBands, "104x104: 676 tiles, 295 KB of weights: in bands")
        XCTAssertEqual(plan.layers[8].algorithm, .winogradFewTiles, "26x26: 49 tiles, tile-major")
        XCTAssertEqual(plan.layers[10].algorithm, .winogradFewTiles, "13x13 256 -> 512: 19 MB of F(4x4, 3x3) weights")
        XCTAssertEqual(plan.layers[12].algorithm, .winogradF23, "13x13 512 -> 1024: 75 MB of F(4x4, 3x3) weights")
    }

    func testYoloV3DownsamplingPaths() throws {
        let plan = try plan("yolov3.cfg", size: 416)
        XCTAssertEqual(plan.layers[1].algorithm, .slidingWindowStride2, "3x3/2 32 -> 64: 72 KB of weights")
        XCTAssertEqual(plan.layers[5].algorithm, .slidingWindowStride2, "3x3/2 64 -> 128: 288 KB of weights")
        XCTAssertEqual(plan.layers[12].algorithm, .im2col, "3x3/2 128 -> 256: 1.2 MB of weights, the GEMM")
        XCTAssertEqual(plan.layers[62].algorithm, .im2col)
        guard case .convolutional(let conv) = plan.layers[1].spec.kind else { return XCTFail("layer 1 is a convolution") }
        let stride2 = SlidingWindowStride2(ConvolutionCandidate(
            shapes: ConvolutionShapes(conv: conv, input: plan.layers[1].inputShape, output: plan.layers[1].outputShape),
            cpu: plan.cpu))
        XCTAssertGreaterThanOrEqual(plan.threadScratchCount, stride2.scratchCount, "the thread scratch holds its band")
    }

    func testArenaReusesBuffersAndKeepsDetectionHeads() throws {
        let plan = try plan("yolov3.cfg", size: 416)
        let total = plan.layers.reduce(plan.inputShape.count) { $0 + $1.outputShape.count }
        let layout = ArenaLayout(plan: plan, retaining: .detection)
        XCTAssertLessThan(layout.count, total / 4, "activations must share memory")
        XCTAssertEqual(layout.retained, [82, 94, 106])
        XCTAssertEqual(layout.fusedShortcuts.count, plan.fusibleShortcuts.count)
        // No two buffers that are alive at the same time overlap.
        assertNoLiveOverlap(plan: plan, layout: layout)
        let all = ArenaLayout(plan: plan, retaining: .all)
        XCTAssertGreaterThanOrEqual(all.count, total - plan.inputShape.count)
        assertNoLiveOverlap(plan: plan, layout: all)
    }

    private func assertNoLiveOverlap(plan: NetworkPlan, layout: ArenaLayout, file: StaticString = #filePath, line: UInt = #line) {
        // Interval of layers during which each output must stay intact.
        var lastUse = plan.layers.map(\.index)
        for layer in plan.layers { for s in layer.sources where s >= 0 { lastUse[s] = max(lastUse[s], layer.index) } }
        for r in layout.retained { lastUse[r] = Int.max }
        for a in plan.layers {
            // A fused shortcut's output is its convolution's buffer (ArenaLayout.fusedShortcuts).
            for b in plan.layers where b.index > a.index && b.index <= lastUse[a.index]
                && !(layout.fusedShortcuts.contains(b.index) && a.index == b.index - 1) {
                let aRange = layout.outputOffsets[a.index]..<(layout.outputOffsets[a.index] + a.outputShape.count)
                let bRange = layout.outputOffsets[b.index]..<(layout.outputOffsets[b.index] + b.outputShape.count)
                XCTAssertFalse(aRange.overlaps(bRange), "layer \(a.index) is overwritten by layer \(b.index)", file: file, line: line)
            }
        }
    }
}
