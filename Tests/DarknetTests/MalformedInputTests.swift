@_spi(Testing) @testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Issue 5, "bad input never crashes or lies": one table of malformed `.cfg`, `.weights` and
/// image inputs, each with the exact error it must produce (type, reason, and line/key,
/// layer, byte offset or path), plus the harmless variants that must keep loading.
///
/// Rows named "fuzz: ..." are crashes `scripts/fuzz.sh` found, "was a crash: ..." ones crashes
/// found by reading the code; both are fixed in the library. More image variants live
/// in `DarknetImageTests/DecodingErrorTests` (truncation at many lengths, huge JPEG headers,
/// `maxPixels`, file errors, random damage).
final class MalformedInputTests: XCTestCase {
    func testEveryMalformedInputGivesItsSpecificError() throws {
        XCTAssertGreaterThanOrEqual(Self.table.count, 60)
        XCTAssertEqual(Set(Self.table.map(\.name)).count, Self.table.count, "case names are unique")
        for row in Self.table {
            let outcome = Self.outcome(of: row.input)
            XCTAssertEqual(outcome, row.expected, "\(row.name)", file: #filePath, line: row.line)
        }
    }

    /// Winograd layers read their weights in place and fold batch norm during the transform;
    /// bad values must still be named exactly as on the general path, on every Winograd layout.
    func testWinogradLayersReportBadWeightsLikeTheGeneralPath() throws {
        var f23 = PlanOptions()
        f23.fewTileWeightLimit = 0
        var gemms = PlanOptions()
        gemms.bandWeightLimit = 0
        let layouts: [(size: Int, options: PlanOptions, algorithm: ConvolutionAlgorithm)] = [
            (8, PlanOptions(), .winogradFewTiles), (8, f23, .winogradF23), (56, PlanOptions(), .winogradBands),
            (56, gemms, .winograd),
        ]
        for layout in layouts {
            let spec = try NetworkSpec.parse(text: "[net]\nwidth=\(layout.size)\nheight=\(layout.size)\nchannels=32\n"
                + "[convolutional]\nbatch_normalize=1\nfilters=4\nsize=3\npad=1\nactivation=leaky\n", file: Self.file)
            let good = try WeightsWriter().randomBytes(for: spec, seed: 3)
            // Header 20 bytes; then 4 biases, scales, means, variances; then 4 x 32 x 3 x 3 weights.
            let variances = 20 + 3 * 16, weights = 20 + 4 * 16
            func error(_ bytes: [UInt8]) -> WeightsError? {
                do {
                    let network = try Network(spec: spec, weights: Data(bytes), weightsName: Self.weightsFile, options: layout.options)
                    XCTAssertEqual(network.plan.layers[0].algorithm, layout.algorithm)
                    return nil
                } catch let error as WeightsError {
                    return error
                } catch {
                    XCTFail("\(error)")
                    return nil
                }
            }
            XCTAssertNil(error(good), "\(layout.algorithm)")
            XCTAssertEqual(error(Self.replacing(good, at: weights + 4 * 7, with: .infinity)),
                           WeightsError(file: Self.weightsFile, layer: 0, offset: weights + 4 * 7,
                                        reason: .nonFinite(parameter: "weights", element: 7)), "\(layout.algorithm)")
            let zeroVariance = Self.replacing(Self.replacing(good, at: 20 + 16 + 4, with: 3e38), at: variances + 4, with: 0)
            XCTAssertEqual(error(zeroVariance),
                           WeightsError(file: Self.weightsFile, layer: 0, offset: variances,
                                        reason: .nonFinite(parameter: "folded batch-norm weights", element: 288)),
                           "filter 1's factor overflows: its first weight is element 288 (\(layout.algorithm))")
            let hugeWeight = Self.replacing(Self.replacing(good, at: 20 + 16 + 8, with: 1e6), at: weights + 4 * (2 * 288 + 5), with: 3e37)
            XCTAssertEqual(error(hugeWeight),
                           WeightsError(file: Self.weightsFile, layer: 0, offset: variances,
                                        reason: .nonFinite(parameter: "folded batch-norm weights", element: 2 * 288 + 5)),
                           "a finite weight times a finite factor overflows (\(layout.algorithm))")
        }
    }

    // MARK: - The table

    static let file = "case.cfg"
    static let weightsFile = "case.weights"

    /// `[net]` 8x8x3: four lines, so the first layer's header is line 5.
    static let net = "[net]\nwidth=8\nheight=8\nchannels=3\n"

    static let table: [Row] = cfgSyntaxRows + netRows + layerRows + planRows + weightsRows + imageRows + runRows + acceptedRows

    // MARK: cfg syntax

    static let cfgSyntaxRows: [Row] = [
        Row("empty file", .cfg(""), .cfg(line: nil, reason: .empty)),
        Row("only comments and blank lines", .cfg("# nothing\n\n; here\n  \t\n"), .cfg(line: nil, reason: .empty)),
        Row("binary garbage (invalid UTF-8)", .cfgBytes([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0xFF, 0xFE, 0x9C]),
            .cfg(line: nil, reason: .notText(byteOffset: 8))),
        Row("invalid UTF-8 after valid lines", .cfgBytes(Array("[net]\nwidth=8\n".utf8) + [0xC3, 0x28]),
            .cfg(line: nil, reason: .notText(byteOffset: 14))),
        Row("NUL byte inside a line (valid UTF-8)", .cfgBytes(Array("[net]\nwidth=8".utf8) + [0] + Array("\n".utf8)),
            .cfg(line: 2, reason: .notText(byteOffset: 13))),
        Row("control characters without '='", .cfg("\u{7}\u{1}garbage\u{2}\n"), .cfg(line: 1, reason: .malformedLine("\u{7}\u{1}garbage\u{2}"))),
        Row("key before any section", .cfg("width=8\n[net]\n"), .cfg(line: 1, key: "width", reason: .keyOutsideSection)),
        Row("line without '='", .cfg("[net]\nwidth 8\n"), .cfg(line: 2, reason: .malformedLine("width 8"))),
        Row("key containing a space", .cfg("[net]\nmy width=8\n"), .cfg(line: 2, reason: .malformedLine("my width=8"))),
        Row("empty key", .cfg("[net]\n=8\n"), .cfg(line: 2, reason: .malformedLine("=8"))),
        Row("unclosed section header", .cfg("[net\nwidth=8\n"), .cfg(line: 1, reason: .malformedSectionHeader("[net"))),
        Row("empty section header", .cfg("[]\n"), .cfg(line: 1, reason: .malformedSectionHeader("[]"))),
        Row("blank section name", .cfg("[ \t]\n"), .cfg(line: 1, reason: .malformedSectionHeader("[ \t]"))),
        Row("nested brackets", .cfg("[[net]]\n"), .cfg(line: 1, reason: .malformedSectionHeader("[[net]]"))),
        Row("unknown section", .cfg(net + "[convolution]\nfilters=4\n"), .cfg(line: 5, reason: .unknownSection("convolution"))),
        Row("Darknet section this library does not run", .cfg(net + "[conv_lstm]\n"),
            .cfg(line: 5, reason: .unsupported("the [conv_lstm] layer is not implemented by this library"))),
        Row("[crnn] with both Darknets' keys", .cfg(net + "[crnn]\noutput=4\nhidden_filters=2\n"),
            .cfg(line: 7, key: "hidden_filters", reason: .unsupported(
                "'hidden_filters' (the original Darknet's [crnn] key) with 'output' (AlexeyAB's): each Darknet ignores the other's"))),
        Row("[crnn] stride 2", .cfg(net + "[crnn]\noutput=4\nsize=3\npad=1\nstride=2\n"),
            .cfg(line: 9, key: "stride", reason: .unsupported("stride=2 in [crnn] (its state keeps the input's width and height)"))),
        Row("[crnn] padding that shrinks the state", .cfg(net + "[crnn]\noutput=4\nsize=3\n"),
            .cfg(line: 7, key: "size", reason: .unsupported(
                "[crnn] with size=3 and padding 0: its state keeps the input's size only with 2*padding = size-1"))),
        Row("[lstm] output 0", .cfg(net + "[lstm]\noutput=0\n"),
            .cfg(line: 6, key: "output", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("first section is not [net]", .cfg("# header\n[convolutional]\nfilters=1\n"), .cfg(line: 2, reason: .missingNetSection)),
        Row("[net] without layers", .cfg(net), .cfg(line: 1, reason: .noLayers)),
        Row("second [net]", .cfg(net + "[maxpool]\n[network]\n"), .cfg(line: 6, reason: .unsupported("a second [net] section"))),
    ]

    // MARK: [net]

    static let netRows: [Row] = [
        Row("width missing", .cfg("[net]\nheight=8\nchannels=3\n[maxpool]\n"), .cfg(line: 1, key: "width", reason: .missingKey)),
        Row("width zero", .cfg("[net]\nwidth=0\nheight=8\nchannels=3\n[maxpool]\n"),
            .cfg(line: 2, key: "width", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("height negative", .cfg("[net]\nwidth=8\nheight=-416\nchannels=3\n[maxpool]\n"),
            .cfg(line: 3, key: "height", reason: .invalidValue(value: "-416", expected: "an integer >= 1"))),
        Row("channels zero", .cfg("[net]\nwidth=8\nheight=8\nchannels=0\n[maxpool]\n"),
            .cfg(line: 4, key: "channels", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("width not a number", .cfg("[net]\nwidth=wide\nheight=8\nchannels=3\n[maxpool]\n"),
            .cfg(line: 2, key: "width", reason: .invalidValue(value: "wide", expected: "a 32-bit integer"))),
        Row("width overflowing 32 bits", .cfg("[net]\nwidth=4294967712\nheight=8\nchannels=3\n[maxpool]\n"),
            .cfg(line: 2, key: "width", reason: .invalidValue(value: "4294967712", expected: "a 32-bit integer"))),
        Row("width in float notation", .cfg("[net]\nwidth=4.16e2\nheight=8\nchannels=3\n[maxpool]\n"),
            .cfg(line: 2, key: "width", reason: .invalidValue(value: "4.16e2", expected: "a 32-bit integer"))),
        Row("width empty", .cfg("[net]\nwidth=\nheight=8\nchannels=3\n[maxpool]\n"),
            .cfg(line: 2, key: "width", reason: .invalidValue(value: "", expected: "a 32-bit integer"))),
        Row("inputs disagreeing with width*height*channels", .cfg("[net]\nwidth=8\nheight=8\nchannels=3\ninputs=100\n[maxpool]\n"),
            .cfg(line: 5, key: "inputs", reason: .invalidValue(value: "100", expected: "width*height*channels = 192"))),
        Row("was a crash: inputs with width*height*channels overflowing Int",
            .cfg("[net]\nwidth=2147483647\nheight=2147483647\nchannels=2147483647\ninputs=1\n[maxpool]\n"),
            .cfg(line: 5, key: "inputs", reason: .invalidValue(value: "1", expected: "width*height*channels = 2147483647*2147483647*2147483647"))),
    ]

    // MARK: layer keys

    static let layerRows: [Row] = [
        Row("Gaussian_yolo anchors past num (AlexeyAB writes past its array)", .cfg(net + "[Gaussian_yolo]\nanchors=1,2, 3,4\nnum=1\n"),
            .cfg(line: 6, key: "anchors", reason: .invalidValue(value: "1,2, 3,4", expected: "num=1 width,height pairs (2 numbers), found 4"))),
        Row("Gaussian_yolo yolo_point unknown", .cfg(net + "[Gaussian_yolo]\nanchors=1,2\nyolo_point=middle\n"),
            .cfg(line: 7, key: "yolo_point", reason: .invalidValue(value: "middle", expected: "one of center, left_top, right_bottom"))),
        Row("Gaussian_yolo cornersnms", .cfg(net + "[Gaussian_yolo]\nanchors=1,2\nnms_kind=cornersnms\n"),
            .cfg(line: 7, key: "nms_kind", reason: .unsupported("nms_kind=cornersnms (AlexeyAB's box merging for corner points)"))),
        Row("contrastive without yolo_layer (AlexeyAB dereferences no layer)", .cfg(net + "[maxpool]\n[contrastive]\n"),
            .cfg(line: 6, key: "yolo_layer", reason: .missingKey)),
        Row("contrastive yolo_layer 0 (AlexeyAB's 'none')", .cfg(net + "[maxpool]\n[contrastive]\nyolo_layer=0\n"),
            .cfg(line: 7, key: "yolo_layer", reason: .invalidValue(value: "0", expected: "a [yolo] layer other than layer 0"))),
        Row("reorg3d stride zero", .cfg(net + "[reorg3d]\nstride=0\n"),
            .cfg(line: 6, key: "stride", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("local_avgpool window wholly in the padding (Darknet averages 0 cells: NaN)",
            .cfg(net + "[local_avgpool]\nsize=2\nstride=2\npadding=3\n"),
            .cfg(line: 8, key: "padding", reason: .invalidValue(value: "3", expected: "at most 2 * size - 2 = 2 (no window wholly in the padding)"))),
        Row("filters zero", .cfg(net + "[convolutional]\nfilters=0\n"),
            .cfg(line: 6, key: "filters", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("filters negative", .cfg(net + "[convolutional]\nfilters=-16\n"),
            .cfg(line: 6, key: "filters", reason: .invalidValue(value: "-16", expected: "an integer >= 1"))),
        Row("filters not a number", .cfg(net + "[convolutional]\nfilters=sixteen\n"),
            .cfg(line: 6, key: "filters", reason: .invalidValue(value: "sixteen", expected: "a 32-bit integer"))),
        Row("filters overflowing 32 bits", .cfg(net + "[convolutional]\nfilters=99999999999\n"),
            .cfg(line: 6, key: "filters", reason: .invalidValue(value: "99999999999", expected: "a 32-bit integer"))),
        Row("convolution size zero", .cfg(net + "[convolutional]\nfilters=4\nsize=0\n"),
            .cfg(line: 7, key: "size", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("convolution size negative", .cfg(net + "[convolutional]\nfilters=4\nsize=-3\n"),
            .cfg(line: 7, key: "size", reason: .invalidValue(value: "-3", expected: "an integer >= 1"))),
        Row("convolution stride zero", .cfg(net + "[convolutional]\nfilters=4\nsize=3\nstride=0\n"),
            .cfg(line: 8, key: "stride", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("convolution stride negative", .cfg(net + "[convolutional]\nfilters=4\nstride=-2\n"),
            .cfg(line: 7, key: "stride", reason: .invalidValue(value: "-2", expected: "an integer >= 1"))),
        Row("padding negative", .cfg(net + "[convolutional]\nfilters=4\nsize=3\npadding=-1\n"),
            .cfg(line: 8, key: "padding", reason: .invalidValue(value: "-1", expected: "an integer >= 0"))),
        Row("pad neither 0 nor 1", .cfg(net + "[convolutional]\nfilters=4\npad=2\n"),
            .cfg(line: 7, key: "pad", reason: .invalidValue(value: "2", expected: "0 or 1"))),
        Row("batch_normalize not a number", .cfg(net + "[convolutional]\nbatch_normalize=yes\n"),
            .cfg(line: 6, key: "batch_normalize", reason: .invalidValue(value: "yes", expected: "a 32-bit integer"))),
        Row("groups not dividing filters", .cfg(net + "[convolutional]\nfilters=4\ngroups=3\n"),
            .cfg(line: 7, key: "groups", reason: .invalidValue(value: "3", expected: "a divisor of filters (4)"))),
        Row("unknown activation", .cfg(net + "[convolutional]\nactivation=swishy\n"),
            .cfg(line: 6, key: "activation", reason: .invalidValue(value: "swishy", expected: "one of \(Activation.allCases.map(\.rawValue).joined(separator: ", "))"))),
        Row("cross-channel activation (AlexeyAB normalize_channels)", .cfg(net + "[convolutional]\nactivation=normalize_channels_softmax\n"),
            .cfg(line: 6, key: "activation", reason: .unsupported("activation=normalize_channels_softmax (normalises across channels, not element-wise)"))),
        Row("dilation with padding that is not 'same'", .cfg(net + "[convolutional]\nsize=3\ndilation=2\n"),
            .cfg(line: 7, key: "dilation", reason: .unsupported("dilation=2 with padding 0 for size 3 (only 'same' padding, 2*padding = size-1)"))),
        Row("dilation zero", .cfg(net + "[convolutional]\nsize=3\npad=1\ndilation=0\n"),
            .cfg(line: 8, key: "dilation", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("stride_x zero", .cfg(net + "[convolutional]\nstride=1\nstride_x=0\n"),
            .cfg(line: 7, key: "stride_x", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("deformable convolution (AlexeyAB sway)", .cfg(net + "[convolutional]\nsize=3\nsway=1\n"),
            .cfg(line: 7, key: "sway", reason: .unsupported("deformable (sway) convolution"))),
        Row("maxpool stride zero", .cfg(net + "[maxpool]\nstride=0\n"),
            .cfg(line: 6, key: "stride", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("maxpool size negative", .cfg(net + "[maxpool]\nsize=-2\n"),
            .cfg(line: 6, key: "size", reason: .invalidValue(value: "-2", expected: "an integer >= 1"))),
        Row("upsample stride zero", .cfg(net + "[upsample]\nstride=0\n"),
            .cfg(line: 6, key: "stride", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("upsample scale not a number", .cfg(net + "[upsample]\nscale=big\n"),
            .cfg(line: 6, key: "scale", reason: .invalidValue(value: "big", expected: "a finite number"))),
        Row("route to itself", .cfg(net + "[maxpool]\n[route]\nlayers=1\n"),
            .cfg(line: 7, key: "layers", reason: .invalidValue(value: "1", expected: "an earlier layer (relative -1...-1 or absolute 0..<1) for layer 1"))),
        Row("route to a later layer", .cfg(net + "[maxpool]\n[route]\nlayers=2\n[maxpool]\n"),
            .cfg(line: 7, key: "layers", reason: .invalidValue(value: "2", expected: "an earlier layer (relative -1...-1 or absolute 0..<1) for layer 1"))),
        Row("route back past the first layer", .cfg(net + "[maxpool]\n[route]\nlayers=-1,-9\n"),
            .cfg(line: 7, key: "layers", reason: .invalidValue(value: "-9", expected: "an earlier layer (relative -1...-1 or absolute 0..<1) for layer 1"))),
        Row("route far out of range", .cfg(net + "[maxpool]\n[route]\nlayers=2147483647\n"),
            .cfg(line: 7, key: "layers", reason: .invalidValue(value: "2147483647", expected: "an earlier layer (relative -1...-1 or absolute 0..<1) for layer 1"))),
        Row("route without layers", .cfg(net + "[maxpool]\n[route]\n"), .cfg(line: 6, key: "layers", reason: .missingKey)),
        Row("route with an empty list", .cfg(net + "[maxpool]\n[route]\nlayers= , ,\n"),
            .cfg(line: 7, key: "layers", reason: .invalidValue(value: ", ,", expected: "at least one integer"))),
        Row("route list with a word", .cfg(net + "[maxpool]\n[route]\nlayers=-1,previous\n"),
            .cfg(line: 7, key: "layers", reason: .invalidValue(value: "-1,previous", expected: "a comma-separated list of integers"))),
        Row("route group_id past groups", .cfg(net + "[maxpool]\n[route]\nlayers=-1\ngroups=2\ngroup_id=2\n"),
            .cfg(line: 9, key: "group_id", reason: .invalidValue(value: "2", expected: "a slice index in 0..<groups (2)"))),
        Row("route groups zero", .cfg(net + "[maxpool]\n[route]\nlayers=-1\ngroups=0\n"),
            .cfg(line: 8, key: "groups", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("shortcut from a later layer", .cfg(net + "[maxpool]\n[shortcut]\nfrom=3\n"),
            .cfg(line: 7, key: "from", reason: .invalidValue(value: "3", expected: "an earlier layer (relative -1...-1 or absolute 0..<1) for layer 1"))),
        Row("shortcut without from", .cfg(net + "[maxpool]\n[shortcut]\nactivation=linear\n"), .cfg(line: 6, key: "from", reason: .missingKey)),
        Row("shortcut with an unknown weights_type", .cfg(net + "[maxpool]\n[shortcut]\nfrom=-1\nweights_type=per_pixel\n"),
            .cfg(line: 8, key: "weights_type", reason: .invalidValue(value: "per_pixel", expected: "one of none, per_feature, per_layer, per_channel"))),
        Row("weighted shortcut (AlexeyAB per_channel)", .cfg(net + "[maxpool]\n[shortcut]\nfrom=-1\nweights_type=per_channel\n"),
            .cfg(line: 8, key: "weights_type", reason: .unsupported("weighted shortcut (weights_type=per_channel)"))),
        Row("shortcut from several layers, one of them later", .cfg(net + "[maxpool]\n[maxpool]\n[shortcut]\nfrom=-1,4\n"),
            .cfg(line: 8, key: "from", reason: .invalidValue(value: "4", expected: "an earlier layer (relative -1...-2 or absolute 0..<2) for layer 2"))),
        Row("sam from several layers", .cfg(net + "[maxpool]\n[maxpool]\n[sam]\nfrom=-1,-2\n"),
            .cfg(line: 8, key: "from", reason: .invalidValue(value: "-1,-2", expected: "one layer index"))),
        Row("sam with mish (AlexeyAB writes 0 there)", .cfg(net + "[maxpool]\n[sam]\nfrom=-1\nactivation=mish\n"),
            .cfg(line: 8, key: "activation", reason: .unsupported("activation=mish in [sam] (AlexeyAB's Darknet does not apply it there)"))),
        Row("scale_channels without from", .cfg(net + "[maxpool]\n[scale_channels]\nscale_wh=1\n"),
            .cfg(line: 6, key: "from", reason: .missingKey)),
        Row("shortcut alpha overflowing Float", .cfg(net + "[maxpool]\n[shortcut]\nfrom=-1\nalpha=1e40\n"),
            .cfg(line: 8, key: "alpha", reason: .invalidValue(value: "1e40", expected: "a finite number"))),
        Row("yolo mask past the anchors", .cfg(net + "[yolo]\nmask=0,3\nanchors=1,2, 3,4, 5,6\nnum=3\n"),
            .cfg(line: 6, key: "mask", reason: .invalidValue(value: "3", expected: "anchor indices in 0..<3"))),
        Row("yolo mask negative", .cfg(net + "[yolo]\nmask=-1\nanchors=1,2\n"),
            .cfg(line: 6, key: "mask", reason: .invalidValue(value: "-1", expected: "anchor indices in 0..<1"))),
        Row("yolo odd anchor count", .cfg(net + "[yolo]\nanchors=10,14, 23,27, 37\nnum=3\n"),
            .cfg(line: 6, key: "anchors", reason: .invalidValue(value: "10,14, 23,27, 37", expected: "an even count of numbers (width,height pairs)"))),
        Row("yolo anchors fewer than num", .cfg(net + "[yolo]\nanchors=10,14, 23,27\nnum=3\n"),
            .cfg(line: 6, key: "anchors", reason: .invalidValue(value: "10,14, 23,27", expected: "num=3 width,height pairs (6 numbers), found 4"))),
        Row("yolo anchor not a number", .cfg(net + "[yolo]\nanchors=10,14,x,27\nnum=2\n"),
            .cfg(line: 6, key: "anchors", reason: .invalidValue(value: "10,14,x,27", expected: "a finite number"))),
        Row("yolo anchor NaN", .cfg(net + "[yolo]\nanchors=nan,14\n"),
            .cfg(line: 6, key: "anchors", reason: .invalidValue(value: "nan,14", expected: "a finite number"))),
        Row("yolo anchor infinite", .cfg(net + "[yolo]\nanchors=10,inf\n"),
            .cfg(line: 6, key: "anchors", reason: .invalidValue(value: "10,inf", expected: "a finite number"))),
        Row("yolo without anchors", .cfg(net + "[yolo]\nclasses=80\n"), .cfg(line: 5, key: "anchors", reason: .missingKey)),
        Row("yolo classes zero", .cfg(net + "[yolo]\nclasses=0\nanchors=1,2\n"),
            .cfg(line: 6, key: "classes", reason: .invalidValue(value: "0", expected: "an integer >= 1"))),
        Row("yolo unknown nms_kind", .cfg(net + "[yolo]\nanchors=1,2\nnms_kind=softnms\n"),
            .cfg(line: 7, key: "nms_kind", reason: .invalidValue(value: "softnms", expected: "one of default, greedynms, diounms"))),
        Row("yolo scale_x_y not a number", .cfg(net + "[yolo]\nanchors=1,2\nscale_x_y=big\n"),
            .cfg(line: 7, key: "scale_x_y", reason: .invalidValue(value: "big", expected: "a finite number"))),
        Row("yolo new_coords neither 0 nor 1", .cfg(net + "[yolo]\nanchors=1,2\nnew_coords=2\n"),
            .cfg(line: 7, key: "new_coords", reason: .invalidValue(value: "2", expected: "0 or 1"))),
    ]

    // MARK: planning (shapes, memory)

    static let planRows: [Row] = [
        Row("[rnn] whose parameter count overflows (was a trap summing the sub-layers)",
            .cfg("[net]\ninputs=4\n[rnn]\noutput=2147483647\n"), .plan(layer: 0, section: "rnn", reason: .sizeOverflow)),
        Row("[gru] whose parameter count overflows", .cfg("[net]\ninputs=4\n[gru]\noutput=2147483647\n"),
            .plan(layer: 0, section: "gru", reason: .sizeOverflow)),
        Row("convolution larger than the input", .cfg(net + "[convolutional]\nfilters=4\nsize=11\n"),
            .plan(layer: 0, section: "convolutional",
                  reason: .windowLargerThanInput(window: 11, input: TensorShape(channels: 3, height: 8, width: 8), padding: 0))),
        Row("convolution larger than a later input", .cfg(net + "[maxpool]\nsize=2\nstride=2\n[convolutional]\nsize=7\npad=0\n"),
            .plan(layer: 1, section: "convolutional",
                  reason: .windowLargerThanInput(window: 7, input: TensorShape(channels: 3, height: 4, width: 4), padding: 0))),
        Row("maxpool larger than the input", .cfg(net + "[maxpool]\nsize=20\npadding=0\n"),
            .plan(layer: 0, section: "maxpool",
                  reason: .windowLargerThanInput(window: 20, input: TensorShape(channels: 3, height: 8, width: 8), padding: 0))),
        Row("groups not dividing the input channels", .cfg(net + "[convolutional]\nfilters=4\ngroups=2\n"),
            .plan(layer: 0, section: "convolutional", reason: .channelsNotDivisibleByGroups(channels: 3, groups: 2))),
        Row("route inputs with different HxW", .cfg(net + "[convolutional]\nfilters=2\n[maxpool]\nsize=2\nstride=2\n[route]\nlayers=-1,0\n"),
            .plan(layer: 2, section: "route", reason: .routeSizeMismatch(
                first: TensorShape(channels: 2, height: 4, width: 4), other: TensorShape(channels: 2, height: 8, width: 8), otherLayer: 0))),
        Row("shortcut between grids Darknet cannot line up (width ratio 3, height ratio 2)",
            .cfg("[net]\nwidth=9\nheight=4\nchannels=3\n[convolutional]\nfilters=4\n[convolutional]\nfilters=4\nstride=3\n[shortcut]\nfrom=-2\n"),
            .plan(layer: 2, section: "shortcut", reason: .shortcutShapeMismatch(
                previous: TensorShape(channels: 4, height: 2, width: 3), from: TensorShape(channels: 4, height: 4, width: 9), fromLayer: 0))),
        Row("route groups not dividing a source's channels", .cfg(net + "[maxpool]\n[route]\nlayers=-1\ngroups=2\n"),
            .plan(layer: 1, section: "route", reason: .channelsNotDivisibleByGroups(channels: 3, groups: 2))),
        Row("shortcut with a second source of another shape", .cfg(net + "[convolutional]\nfilters=4\n[convolutional]\nfilters=8\n[convolutional]\nfilters=8\n[shortcut]\nfrom=-2,-3\n"),
            .plan(layer: 3, section: "shortcut", reason: .shortcutShapeMismatch(
                previous: TensorShape(channels: 8, height: 8, width: 8), from: TensorShape(channels: 4, height: 8, width: 8), fromLayer: 0))),
        Row("sam with operands of different shapes", .cfg(net + "[convolutional]\nfilters=4\n[convolutional]\nfilters=8\n[sam]\nfrom=-2\n"),
            .plan(layer: 2, section: "sam", reason: .scaleShapeMismatch(
                previous: TensorShape(channels: 8, height: 8, width: 8), from: TensorShape(channels: 4, height: 8, width: 8), fromLayer: 0))),
        Row("scale_channels with a scale that is not 1x1xC", .cfg(net + "[convolutional]\nfilters=4\n[convolutional]\nfilters=4\n[scale_channels]\nfrom=-2\n"),
            .plan(layer: 2, section: "scale_channels", reason: .scaleShapeMismatch(
                previous: TensorShape(channels: 4, height: 8, width: 8), from: TensorShape(channels: 4, height: 8, width: 8), fromLayer: 0))),
        Row("yolo input channels != len(mask)*(classes+5)",
            .cfg(net + "[convolutional]\nfilters=21\n[yolo]\nmask=0,1\nanchors=1,2, 3,4\nnum=2\nclasses=5\n"),
            .plan(layer: 1, section: "yolo", reason: .yoloChannelMismatch(expected: 20, actual: 21))),
        Row("upsample overflowing the tensor size", .cfg(net + "[upsample]\nstride=100000\n"),
            .plan(layer: 0, section: "upsample", reason: .sizeOverflow)),
        Row("network input overflowing Int (was blamed on layer 0)", .cfg("[net]\nwidth=2147483647\nheight=2147483647\nchannels=2147483647\n[maxpool]\n"),
            .plan(layer: -1, section: "net", reason: .sizeOverflow)),
        Row("network input over 2^31 values", .cfg("[net]\nwidth=65536\nheight=65536\nchannels=1\n[maxpool]\n"),
            .plan(layer: -1, section: "net", reason: .sizeOverflow)),
        Row("planned memory over the default 4 GiB", .cfg("[net]\nwidth=4096\nheight=4096\nchannels=3\n[convolutional]\nfilters=64\n"),
            .plan(layer: -1, section: "net", reason: .memoryLimitExceeded(
                bytes: (3 + 64) * 4096 * 4096 * 4 + 64 * 4 * 4 + pointwiseScratchBytes(channels: 3, filters: 64, plane: 4096 * 4096),
                limit: 4 << 30))),
        Row("planned memory counts one thread's scratch",
            .cfg("[net]\nwidth=8\nheight=8\nchannels=32\n[convolutional]\nfilters=4\nsize=3\npad=1\n", memoryLimit: 4096),
            // input + output + few-tile Winograd workspace (36 x 4 tiles x (32 + 16) channels)
            // + parameters (36 x 32 x 16 + 4) + the input transform's scratch for width 8
            .plan(layer: -1, section: "net", reason: .memoryLimitExceeded(bytes: (2048 + 256 + 6912 + 18436 + 68) * 4, limit: 4096))),
        Row("planned memory over a configured limit", .cfg(net + "[convolutional]\nfilters=4\nsize=3\npad=1\n", memoryLimit: 4096),
            // input + output + the sliding-window padded planes (3 x 10 rows x 26 columns) + parameters
            .plan(layer: -1, section: "net", reason: .memoryLimitExceeded(bytes: (192 + 256 + 3 * 10 * 26 + 4 * 28) * 4, limit: 4096))),
        Row("planned memory exactly at a configured limit", .cfg(net + "[convolutional]\nfilters=4\nsize=3\npad=1\n", memoryLimit: (192 + 256 + 3 * 10 * 26 + 4 * 28) * 4),
            .accepted(layers: 1)),
        // 238609294 * 9 = 2^31 - 2: the largest kernel area BLAS takes; each wide layer holds
        // about 2^62 parameters, and the total must not wrap around under the limit.
        Row("parameter counts summing past Int.max (the sum wrapped around before)",
            .cfg("[net]\nwidth=1\nheight=1\nchannels=238609294\n[convolutional]\nfilters=2147483646\nsize=3\npad=1\n"
                 + "[convolutional]\nfilters=238609294\n[convolutional]\nfilters=2147483646\nsize=3\npad=1\n", memoryLimit: .max),
            .plan(layer: -1, section: "net", reason: .sizeOverflow)),
        Row("kernel area beyond BLAS's 32-bit dimensions", .cfg("[net]\nwidth=1\nheight=1\nchannels=238609295\n[convolutional]\nsize=3\npad=1\n", memoryLimit: .max),
            .plan(layer: 0, section: "convolutional", reason: .sizeOverflow)),
        Row("memory limit checked before the weights file is read", .cfgFile(net + "[convolutional]\nfilters=4\n", memoryLimit: 100),
            .plan(layer: -1, section: "net", reason: .memoryLimitExceeded(
                bytes: (192 + 256 + 4 * 4) * 4 + pointwiseScratchBytes(channels: 3, filters: 4, plane: 64), limit: 100))),
    ]

    // MARK: weights

    /// `[net]` 8x8x3, conv 2 filters 3x3 with batch norm (layer 0), 2x2 maxpool (layer 1),
    /// conv 4 filters 1x1 (layer 2). File layout with the 20-byte header: layer 0 biases at
    /// 20, scales 28, rolling_mean 36, rolling_variance 44, weights 52..<268; layer 2 biases
    /// 268, weights 284..<316.
    static let weightsCfg = net + """
        [convolutional]
        batch_normalize=1
        filters=2
        size=3
        pad=1
        activation=leaky
        [maxpool]
        size=2
        stride=2
        [convolutional]
        filters=4
        size=1
        activation=linear

        """

    /// A correct file for `weightsCfg` (316 bytes; 312 with a 16-byte v0.1 header).
    static func goodWeights(major: Int32 = 0, minor: Int32 = 2, revision: Int32 = 0) -> [UInt8] {
        let spec = try! NetworkSpec.parse(text: weightsCfg, file: file)
        var builder = WeightsWriter()
        builder.major = major
        builder.minor = minor
        builder.revision = revision
        return try! builder.randomBytes(for: spec, seed: 7)
    }

    static func header(_ major: Int32, _ minor: Int32, _ revision: Int32) -> [UInt8] {
        [major, minor, revision].flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } } + [UInt8](repeating: 0, count: 8)
    }

    static func replacing(_ bytes: [UInt8], at offset: Int, with value: Float) -> [UInt8] {
        var bytes = bytes
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        return bytes
    }

    static let weightsRows: [Row] = [
        Row("weights: empty file", .weights([]), .weights(layer: nil, offset: 0, reason: .truncatedHeader(needed: 16, available: 0))),
        Row("weights: shorter than the version", .weights(Array(goodWeights().prefix(11))),
            .weights(layer: nil, offset: 0, reason: .truncatedHeader(needed: 16, available: 11))),
        Row("weights: v0.2 header cut inside 64-bit seen", .weights(Array(goodWeights().prefix(18))),
            .weights(layer: nil, offset: 0, reason: .truncatedHeader(needed: 20, available: 18))),
        Row("weights: header only (v0.2)", .weights(Array(goodWeights().prefix(20))),
            .weights(layer: 0, offset: 20, reason: .truncated(parameter: "biases", neededBytes: 8, availableBytes: 0))),
        Row("weights: header only (v0.1, 32-bit seen)", .weights(Array(goodWeights(minor: 1).prefix(16))),
            .weights(layer: 0, offset: 16, reason: .truncated(parameter: "biases", neededBytes: 8, availableBytes: 0))),
        Row("weights: truncated in layer 0's variances", .weights(Array(goodWeights().prefix(47))),
            .weights(layer: 0, offset: 44, reason: .truncated(parameter: "rolling_variance", neededBytes: 8, availableBytes: 3))),
        Row("weights: truncated in layer 0's weights", .weights(Array(goodWeights().prefix(100))),
            .weights(layer: 0, offset: 52, reason: .truncated(parameter: "weights", neededBytes: 216, availableBytes: 48))),
        Row("weights: truncated mid-layer 2", .weights(Array(goodWeights().prefix(290))),
            .weights(layer: 2, offset: 284, reason: .truncated(parameter: "weights", neededBytes: 32, availableBytes: 6))),
        Row("weights: one byte short", .weights(Array(goodWeights().dropLast())),
            .weights(layer: 2, offset: 284, reason: .truncated(parameter: "weights", neededBytes: 32, availableBytes: 31))),
        Row("weights: one trailing byte", .weights(goodWeights() + [0]), .weights(layer: nil, offset: 316, reason: .trailingBytes(count: 1))),
        Row("weights: a whole extra layer's worth of trailing bytes", .weights(goodWeights() + [UInt8](repeating: 0, count: 400)),
            .weights(layer: nil, offset: 316, reason: .trailingBytes(count: 400))),
        Row("weights: negative major version", .weights(header(-1, 2, 0) + Array(goodWeights().dropFirst(20))),
            .weights(layer: nil, offset: 0, reason: .invalidVersion(major: -1, minor: 2, revision: 0))),
        Row("weights: negative revision", .weights(header(0, 2, -5) + Array(goodWeights().dropFirst(20))),
            .weights(layer: nil, offset: 0, reason: .invalidVersion(major: 0, minor: 2, revision: -5))),
        Row("weights: impossible major version", .weights(header(Int32.max, 2, 0) + Array(goodWeights().dropFirst(20))),
            .weights(layer: nil, offset: 0, reason: .invalidVersion(major: Int32.max, minor: 2, revision: 0))),
        Row("weights: impossible minor version", .weights(header(0, 70_000, 0) + Array(goodWeights().dropFirst(20))),
            .weights(layer: nil, offset: 0, reason: .invalidVersion(major: 0, minor: 70_000, revision: 0))),
        Row("weights: a .cfg passed as weights", .weights(Array(weightsCfg.utf8)),
            .weights(layer: nil, offset: 0, reason: .invalidVersion(major: 0x7465_6E5B, minor: 0x6977_0A5D, revision: 0x3D68_7464))),
        Row("weights: a PNG passed as weights", .weights([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
            .weights(layer: nil, offset: 0, reason: .invalidVersion(major: 0x474E_5089, minor: 0x0A1A_0A0D, revision: 0x0D00_0000))),
        Row("weights: NaN bias in layer 0", .weights(replacing(goodWeights(), at: 24, with: .nan)),
            .weights(layer: 0, offset: 24, reason: .nonFinite(parameter: "biases", element: 1))),
        Row("weights: -infinity scale in layer 0", .weights(replacing(goodWeights(), at: 28, with: -.infinity)),
            .weights(layer: 0, offset: 28, reason: .nonFinite(parameter: "scales", element: 0))),
        Row("weights: NaN mean in layer 0", .weights(replacing(goodWeights(), at: 40, with: .nan)),
            .weights(layer: 0, offset: 40, reason: .nonFinite(parameter: "rolling_mean", element: 1))),
        Row("weights: +infinity weight in layer 2", .weights(replacing(goodWeights(), at: 284 + 12, with: .infinity)),
            .weights(layer: 2, offset: 296, reason: .nonFinite(parameter: "weights", element: 3))),
        Row("weights: signalling NaN in layer 2's biases", .weights(replacing(goodWeights(), at: 268, with: .signalingNaN)),
            .weights(layer: 2, offset: 268, reason: .nonFinite(parameter: "biases", element: 0))),
        Row("weights: negative batch-norm variance", .weights(replacing(goodWeights(), at: 48, with: -0.5)),
            .weights(layer: 0, offset: 48, reason: .negativeVariance(element: 1, value: -0.5))),
        Row("weights: batch-norm folding overflowing to infinity",
            .weights(replacing(replacing(goodWeights(), at: 28, with: 3e38), at: 44, with: 0)),
            .weights(layer: 0, offset: 44, reason: .nonFinite(parameter: "folded batch-norm weights", element: 0))),
        // The same through Network(cfg:weights:), which memory-maps the file.
        Row("weights file: empty", .weightsFile(.bytes([])), .weights(layer: nil, offset: 0, reason: .truncatedHeader(needed: 16, available: 0))),
        Row("weights file: truncated mid-layer 2", .weightsFile(.bytes(Array(goodWeights().prefix(290)))),
            .weights(layer: 2, offset: 284, reason: .truncated(parameter: "weights", neededBytes: 32, availableBytes: 6))),
        Row("weights file: trailing bytes", .weightsFile(.bytes(goodWeights() + [1, 2, 3])),
            .weights(layer: nil, offset: 316, reason: .trailingBytes(count: 3))),
        Row("weights file: NaN in layer 2", .weightsFile(.bytes(replacing(goodWeights(), at: 300, with: .nan))),
            .weights(layer: 2, offset: 300, reason: .nonFinite(parameter: "weights", element: 4))),
        Row("weights file: missing", .weightsFile(.missing), .fileError(path: "missing.weights")),
        Row("weights file: a directory", .weightsFile(.directory), .fileError(path: "directory.weights")),
        Row("weights file: correct", .weightsFile(.bytes(goodWeights())), .accepted(layers: 3)),
        Row("weights: correct v0.2 file", .weights(goodWeights()), .accepted(layers: 3)),
        Row("weights: correct v0.1 file (32-bit seen)", .weights(goodWeights(minor: 1)), .accepted(layers: 3)),
        Row("weights: correct v1.0 file (64-bit seen)", .weights(goodWeights(major: 1, minor: 0)), .accepted(layers: 3)),
        Row("weights: Darknet's 'transposed' version 1001.0 (32-bit seen)", .weights(goodWeights(major: 1001, minor: 0)), .accepted(layers: 3)),
    ]

    // MARK: images (more in DarknetImageTests/DecodingErrorTests)

    static let imageRows: [Row] = [
        Row("image: empty", .image([]), .imageFile(.unreadable(path: PlanarImage.inMemoryPath, reason: "the file is empty"))),
        Row("image: not an image", .image(Array("[net]\nwidth=416\n".utf8)), .imageFile(.unsupportedFormat(path: PlanarImage.inMemoryPath))),
        Row("image: GIF", .image(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]), .imageFile(.unsupportedFormat(path: PlanarImage.inMemoryPath))),
        Row("image: JPEG signature only", .image([0xFF, 0xD8, 0xFF]),
            .imageFile(.corrupt(path: PlanarImage.inMemoryPath, reason: "JPEG datastream contains no image"))),
        Row("image: JPEG cut inside its tables", .image(Array(sampleJPEG.prefix(100))),
            .imageFile(.corrupt(path: PlanarImage.inMemoryPath, reason: "JPEG datastream contains no image"))),
        Row("image: JPEG cut before its scan", .image(Array(sampleJPEG.prefix(sampleJPEG.count / 2))),
            .imageFile(.corrupt(path: PlanarImage.inMemoryPath, reason: "Invalid JPEG file structure: missing SOS marker"))),
        Row("image: JPEG truncated in its scan data", .image(Array(largeJPEG.prefix(largeJPEG.count / 2))),
            .imageFile(.corrupt(path: PlanarImage.inMemoryPath, reason: "JPEG data ends before the image does (truncated file)"))),
        Row("image: truncated PNG", .image(Array(samplePNG.prefix(samplePNG.count / 2))),
            .imageFile(.corrupt(path: PlanarImage.inMemoryPath, reason: "unexpected end of data"))),
        Row("image: PNG with a damaged IHDR CRC", .image(samplePNG.enumerated().map { $0.offset == 29 ? $0.element ^ 0xFF : $0.element }),
            .imageFile(.corrupt(path: PlanarImage.inMemoryPath, reason: "IHDR: CRC error"))),
        Row("image: PNG header claiming 100000x100000", .image(ImageBytes.pngHeaderOnly(width: 100_000, height: 100_000)),
            .imageFile(.tooLarge(path: PlanarImage.inMemoryPath, width: 100_000, height: 100_000, limit: 100_000_000))),
        Row("image: PNG header claiming 4 Gpx (2^32-1 wide)", .image(ImageBytes.pngHeaderOnly(width: 0xFFFF_FFFF, height: 1)),
            .imageFile(.tooLarge(path: PlanarImage.inMemoryPath, width: 0xFFFF_FFFF, height: 1, limit: 100_000_000))),
        Row("image: JPEG header claiming 65535x65535", .image(ImageBytes.jpegHeaderOnly(width: 65_535, height: 65_535)),
            .imageFile(.tooLarge(path: PlanarImage.inMemoryPath, width: 65_535, height: 65_535, limit: 100_000_000))),
        Row("image: valid PNG over a caller's pixel limit", .image(samplePNG, maxPixels: 100),
            .imageFile(.tooLarge(path: PlanarImage.inMemoryPath, width: 24, height: 16, limit: 100))),
        Row("was a crash: filled image whose size overflows Int", .filledImage(width: 1 << 40, height: 1 << 30, channels: 3),
            .image(.invalidDimensions(width: 1 << 40, height: 1 << 30, channels: 3))),
        Row("was a crash: letterbox canvas whose size overflows Int", .letterbox(width: 1 << 62, height: 3),
            .image(.invalidDimensions(width: 1 << 62, height: 3, channels: 3))),
        Row("letterbox to a zero width", .letterbox(width: 0, height: 416), .image(.invalidDimensions(width: 0, height: 416, channels: 3))),
        Row("image: valid JPEG", .image(sampleJPEG), .decoded(width: 24, height: 16)),
        Row("image: valid PNG", .image(samplePNG), .decoded(width: 24, height: 16)),
    ]

    static let sampleImage: PlanarImage = {
        let (w, h) = (24, 16)
        let pixels = (0..<(3 * w * h)).map { Float(($0 * 37) % 255) / 255 }
        return try! PlanarImage(width: w, height: h, channels: 3, pixels: pixels)
    }()
    static let sampleJPEG = try! sampleImage.jpegData()
    /// Mostly entropy-coded data: noise compresses badly.
    static let largeJPEG: [UInt8] = {
        var state: UInt32 = 1
        let pixels = (0..<(3 * 96 * 64)).map { _ -> Float in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 24) / 255
        }
        return try! PlanarImage(width: 96, height: 64, channels: 3, pixels: pixels).jpegData()
    }()
    static let samplePNG = try! sampleImage.pngData()

    // MARK: running and detecting

    /// Two heads that disagree on the class count (2 and 1): Darknet sizes its boxes by the
    /// last head and writes past them for the first.
    static let mismatchedHeadsCfg = net + """
        [convolutional]
        filters=14
        [yolo]
        mask=0,1
        anchors=1,2, 3,4
        num=2
        classes=2
        [convolutional]
        filters=6
        [yolo]
        mask=0
        anchors=1,2
        classes=1

        """

    /// The stair activation after weights large enough to overflow to infinity and NaN.
    static let stairCfg = net + """
        [convolutional]
        filters=2
        size=3
        pad=1
        activation=stair
        [convolutional]
        filters=6
        size=1
        activation=stair
        [yolo]
        mask=0
        anchors=2,3
        classes=1

        """

    static func hugeWeights(for cfg: String) -> [UInt8] {
        let spec = try! NetworkSpec.parse(text: cfg, file: file)
        return WeightsWriter().bytes(for: try! NetworkPlan(spec: spec)) { array in
            array.name == "biases" ? [Float](repeating: 1e30, count: array.count)
                                   : (0..<array.count).map { $0 % 2 == 0 ? 3e38 : -3e38 }
        }
    }

    static let runRows: [Row] = [
        Row("fuzz: stair activation on infinities and NaN (was a trap converting to Int)",
            .detect(cfg: stairCfg, weights: hugeWeights(for: stairCfg), channels: 3), .detected),
        Row("was a crash: detection heads with different class counts", .detect(cfg: mismatchedHeadsCfg, weights: nil, channels: 3),
            .detector(.classCountMismatch(cfg: file, line: 7, layer: 1, classes: 2, expected: 1))),
        Row("detector without a detection head", .detect(cfg: net + "[convolutional]\nfilters=2\n", weights: nil, channels: 3),
            .detector(.noDetectionHead(cfg: file))),
        Row("grey image for an RGB network", .detect(cfg: stairCfg, weights: nil, channels: 1),
            .detector(.channelMismatch(expected: 3, actual: 1))),
        Row("forward pass with the wrong input size", .forward(cfg: net + "[maxpool]\n", inputCount: 191),
            .inference(.inputSizeMismatch(expected: 192, actual: 191))),
    ]

    // MARK: accepted variants

    static let acceptedRows: [Row] = [
        Row("accepted: CRLF line ends", .cfg("[net]\r\nwidth=8\r\nheight=8\r\nchannels=3\r\n[maxpool]\r\nsize=2\r\n"), .accepted(layers: 1)),
        Row("accepted: lone CR line ends", .cfg("[net]\rwidth=8\rheight=8\rchannels=3\r[maxpool]\r"), .accepted(layers: 1)),
        Row("accepted: UTF-8 byte-order mark", .cfgBytes([0xEF, 0xBB, 0xBF] + Array((net + "[maxpool]\n").utf8)), .accepted(layers: 1)),
        Row("accepted: tabs and spaces around keys and values", .cfg("\t[net]  \nwidth\t=\t8\n  height =8\t\nchannels= 3\n[maxpool]\n\tsize = 2\n"),
            .accepted(layers: 1)),
        Row("accepted: comments at line end", .cfg("[net] # input\nwidth=8 # pixels\nheight=8; rows\nchannels=3#rgb\n[maxpool] ; pool\n"),
            .accepted(layers: 1)),
        Row("accepted: no final newline, blank lines everywhere", .cfg("\n\n[net]\n\nwidth=8\nheight=8\n\nchannels=3\n\n[maxpool]"), .accepted(layers: 1)),
        Row("accepted: mixed line ends, BOM and comments", .cfgBytes([0xEF, 0xBB, 0xBF] + Array("# c\r\n[net]\nwidth=8\r\theight=8 ;x\r\nchannels=3\n[conv]\nfilters=2\r\n".utf8)),
            .accepted(layers: 1)),
        Row("accepted: AlexeyAB training and tracking keys in [yolo]",
            .cfg(net + "[convolutional]\nfilters=6\n[yolo]\nanchors=1,2\nclasses=1\niou_thresh=0.213\niou_normalizer=0.07\niou_loss=ciou\nmax_delta=5\nobjectness_smooth=1\nsim_thresh=0.8\ntrack_history_size=5\n"),
            .accepted(layers: 2)),
        Row("accepted: AlexeyAB GPU and training keys in [convolutional]",
            .cfg(net + "[convolutional]\nfilters=2\nsize=3\npad=1\nstream=1\nwait_stream=0\nassisted_excitation=4000\ngrad_centr=1\n"),
            .accepted(layers: 1)),
    ]
}

// MARK: - Running a row

extension MalformedInputTests {
    enum Input: Sendable {
        /// `.cfg` text parsed and planned (with `memoryLimit`, default 4 GiB).
        case cfg(String, memoryLimit: Int = 4 << 30)
        /// `.cfg` bytes parsed and planned.
        case cfgBytes([UInt8])
        /// A `.cfg` file loaded with `Network(cfg:weights:options:)` and a weights path that does not exist.
        case cfgFile(String, memoryLimit: Int)
        /// `weightsCfg` loaded with these weights.
        case weights([UInt8])
        /// `weightsCfg` and a weights file written to disk, loaded with `Network(cfg:weights:)`.
        case weightsFile(WeightsFile)
        /// Image bytes decoded.
        case image([UInt8], maxPixels: Int = 100_000_000)
        /// `PlanarImage(width:height:channels:filledWith:)`.
        case filledImage(width: Int, height: Int, channels: Int)
        /// The 24x16 sample image letterboxed to `width x height`.
        case letterbox(width: Int, height: Int)
        /// A detector on `cfg` with these weights (random ones if nil) on a 12x9 image.
        case detect(cfg: String, weights: [UInt8]?, channels: Int)
        /// A forward pass with `inputCount` values.
        case forward(cfg: String, inputCount: Int)
    }

    enum WeightsFile: Sendable {
        case bytes([UInt8])
        case missing
        case directory
    }

    enum Outcome: Equatable, Sendable {
        case cfg(CfgError)
        case plan(PlanError)
        case weights(WeightsError)
        case image(ImageError)
        case imageFile(ImageFileError)
        case detector(DetectorError)
        case inference(InferenceError)
        /// A `FileError` for the file named `path` (last path component) with some reason.
        case fileError(path: String)
        case unexpected(String)
        case accepted(layers: Int)
        case decoded(width: Int, height: Int)
        case detected

        static func cfg(line: Int?, key: String? = nil, reason: CfgError.Reason) -> Outcome {
            .cfg(CfgError(file: MalformedInputTests.file, line: line, key: key, reason: reason))
        }
        static func plan(layer: Int, section: String, reason: PlanError.Reason) -> Outcome {
            .plan(PlanError(layer: layer, section: section, reason: reason))
        }
        static func weights(layer: Int?, offset: Int, reason: WeightsError.Reason) -> Outcome {
            .weights(WeightsError(file: MalformedInputTests.weightsFile, layer: layer, offset: offset, reason: reason))
        }
    }

    struct Row: Sendable {
        let name: String
        let input: Input
        let expected: Outcome
        let line: UInt
        init(_ name: String, _ input: Input, _ expected: Outcome, line: UInt = #line) {
            self.name = name
            self.input = input
            self.expected = expected
            self.line = line
        }
    }

    static func outcome(of input: Input) -> Outcome {
        do {
            switch input {
            case .cfg(let text, let limit):
                let spec = try NetworkSpec.parse(text: text, file: file)
                return .accepted(layers: try NetworkPlan(spec: spec, options: PlanOptions(memoryLimit: limit)).layers.count)
            case .cfgBytes(let bytes):
                let spec = try NetworkSpec.parse(bytes: bytes, file: file)
                return .accepted(layers: try NetworkPlan(spec: spec).layers.count)
            case .cfgFile(let text, let limit):
                return try withTemporaryDirectory("malformed") { directory in
                    let cfg = directory.appendingPathComponent(file)
                    try Data(text.utf8).write(to: cfg)
                    let network = try Network(cfg: cfg, weights: directory.appendingPathComponent("missing.weights"),
                                              options: PlanOptions(memoryLimit: limit))
                    return .accepted(layers: network.plan.layers.count)
                }
            case .weights(let bytes):
                let spec = try NetworkSpec.parse(text: weightsCfg, file: file)
                return .accepted(layers: try Network(spec: spec, weights: bytes, weightsName: weightsFile).plan.layers.count)
            case .weightsFile(let kind):
                return try withTemporaryDirectory("malformed") { directory in
                    let cfg = directory.appendingPathComponent(file)
                    try Data(weightsCfg.utf8).write(to: cfg)
                    let weights: URL
                    switch kind {
                    case .bytes(let bytes):
                        weights = directory.appendingPathComponent(weightsFile)
                        try Data(bytes).write(to: weights)
                    case .missing:
                        weights = directory.appendingPathComponent("missing.weights")
                    case .directory:
                        weights = directory.appendingPathComponent("directory.weights")
                        try FileManager.default.createDirectory(at: weights, withIntermediateDirectories: true)
                    }
                    do {
                        return .accepted(layers: try Network(cfg: cfg, weights: weights).plan.layers.count)
                    } catch let error as WeightsError where error.file == weights.path {
                        // Compare as if loaded from memory under `weightsFile`.
                        return .weights(WeightsError(file: weightsFile, layer: error.layer, offset: error.offset, reason: error.reason))
                    } catch let error as FileError where error.path == weights.path && !error.reason.isEmpty {
                        return .fileError(path: weights.lastPathComponent)
                    }
                }
            case .image(let bytes, let maxPixels):
                let image = try PlanarImage(data: bytes, maxPixels: maxPixels)
                return .decoded(width: image.width, height: image.height)
            case .filledImage(let width, let height, let channels):
                let image = try PlanarImage(width: width, height: height, channels: channels, filledWith: 0)
                return .decoded(width: image.width, height: image.height)
            case .letterbox(let width, let height):
                let image = try sampleImage.letterboxed(width: width, height: height).image
                return .decoded(width: image.width, height: image.height)
            case .detect(let cfg, let weights, let channels):
                let spec = try NetworkSpec.parse(text: cfg, file: file)
                let network = try weights.map { try Network(spec: spec, weights: $0, weightsName: weightsFile) }
                    ?? Network(spec: spec, randomSeed: 1)
                let detector = try Detector(network: network)
                let image = try PlanarImage(width: 12, height: 9, channels: channels, filledWith: 0.5)
                _ = try detector.detect(image, threshold: 0.01)
                return .detected
            case .forward(let cfg, let count):
                let network = try Network(spec: try NetworkSpec.parse(text: cfg, file: file), randomSeed: 1)
                try InferenceSession(network: network).forward([Float](repeating: 0, count: count))
                return .accepted(layers: network.plan.layers.count)
            }
        } catch let error as CfgError {
            return .cfg(error)
        } catch let error as PlanError {
            // The rows compare what went wrong; the file, line and notes are checked by
            // ErrorMessageTests.
            return .plan(PlanError(layer: error.layer, section: error.section, reason: error.reason))
        } catch let error as WeightsError {
            // The sizes and notes are checked by ErrorMessageTests.
            return .weights(WeightsError(file: error.file, layer: error.layer, offset: error.offset, reason: error.reason))
        } catch let error as ImageError {
            return .image(error)
        } catch let error as ImageFileError {
            return .imageFile(error)
        } catch let error as DetectorError {
            return .detector(error)
        } catch let error as InferenceError {
            return .inference(error)
        } catch {
            return .unexpected("\(type(of: error)): \(error)")
        }
    }
}
