@testable import Darknet
import TestSupport
import XCTest

final class CfgParserTests: XCTestCase {
    func testAcceptsCommentsCRLFBOMTabsAndAliases() throws {
        let text = "\u{FEFF}# a comment\r\n[network]\r\nwidth = 32\r\n\theight=16 # trailing\r\nchannels\t=\t3\r\n; another\r\n\r\n[conv]\r\nfilters=4\r\nsize=3\r\npad=1\r\nactivation=leaky\r\n[max]\r\nsize=2\r\nstride=2\r\n"
        let spec = try NetworkSpec.parse(text: text, file: "variants.cfg")
        XCTAssertEqual(spec.net, NetSpec(width: 32, height: 16, channels: 3))
        XCTAssertEqual(spec.layers.count, 2)
        XCTAssertEqual(spec.layers[0].line, 8)
        XCTAssertEqual(spec.layers[0].kind, .convolutional(ConvolutionalSpec(
            filters: 4, size: 3, stride: 1, padding: 1, groups: 1, batchNormalize: false, flipped: false, activation: .leaky)))
        XCTAssertEqual(spec.layers[1].kind, .maxpool(MaxpoolSpec(size: 2, stride: 2, padding: 1)))
        XCTAssertTrue(spec.diagnostics.isEmpty, "\(spec.diagnostics)")
    }

    func testLoneCarriageReturnsCountAsLines() throws {
        let spec = try NetworkSpec.parse(text: "[net]\rwidth=8\rheight=8\rchannels=1\r[maxpool]\rsize=2\r", file: "cr.cfg")
        XCTAssertEqual(spec.layers[0].line, 5)
    }

    func testDefaultsFollowDarknet() throws {
        let spec = try NetworkSpec.parse(text: "[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\n[maxpool]\n[upsample]\n[shortcut]\nfrom=-1\n[yolo]\nanchors=1,2\n", file: "defaults.cfg")
        XCTAssertEqual(spec.layers[0].kind, .convolutional(ConvolutionalSpec(
            filters: 1, size: 1, stride: 1, padding: 0, groups: 1, batchNormalize: false, flipped: false, activation: .logistic)))
        XCTAssertEqual(spec.layers[1].kind, .maxpool(MaxpoolSpec(size: 1, stride: 1, padding: 0)))
        XCTAssertEqual(spec.layers[2].kind, .upsample(UpsampleSpec(stride: 2, scale: 1)))
        XCTAssertEqual(spec.layers[3].kind, .shortcut(ShortcutSpec(from: [2], activation: .linear, alpha: 1, beta: 1)))
        XCTAssertEqual(spec.layers[4].kind, .yolo(YoloSpec(mask: [0], anchors: [(1, 2)], classes: 20)))
    }

    func testTrainingKeysAreIgnoredAndUnknownKeysReported() throws {
        let text = "[net]\nbatch=64\nmomentum=0.9\nlearning_rate=0.001\nwidth=8\nheight=8\nchannels=3\nwidht=9\n[convolutional]\nfilters=2\nfliters=3\nfilters=5\n"
        let spec = try NetworkSpec.parse(text: text, file: "keys.cfg")
        XCTAssertEqual(spec.diagnostics.map(\.key), ["widht", "fliters", "filters"])
        XCTAssertEqual(spec.diagnostics.map(\.line), [8, 11, 12])
        XCTAssertTrue(spec.diagnostics[2].message.contains("repeated"))
        guard case .convolutional(let conv) = spec.layers[0].kind else { return XCTFail() }
        XCTAssertEqual(conv.filters, 2, "the first occurrence wins, as in Darknet")
    }

    func testRelativeAndAbsoluteIndicesResolve() throws {
        let text = "[net]\nwidth=8\nheight=8\nchannels=3\n[maxpool]\n[maxpool]\n[route]\nlayers=-1, 0\n[shortcut]\nfrom=-3\n"
        let spec = try NetworkSpec.parse(text: text, file: "routes.cfg")
        XCTAssertEqual(spec.layers[2].kind, .route(RouteSpec(layers: [1, 0])))
        XCTAssertEqual(spec.layers[3].kind, .shortcut(ShortcutSpec(from: [0], activation: .linear, alpha: 1, beta: 1)))
    }

    func testEveryDarknetYoloV3CfgParsesCleanly() throws {
        for name in ["yolov3-tiny.cfg", "yolov3.cfg", "yolov3-spp.cfg", "yolov3-voc.cfg", "yolov3-openimages.cfg"] {
            let url = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent(name))
            let spec = try NetworkSpec.parse(bytes: [UInt8](try Data(contentsOf: url)), file: name)
            let unknown = spec.diagnostics.filter { !$0.message.contains("repeated") }
            XCTAssertTrue(unknown.isEmpty, "\(name): \(unknown)")
            _ = try NetworkPlan(spec: spec)
        }
    }
}
