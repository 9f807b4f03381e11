@_spi(Testing) @testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Issue 20: every error names its file (and line, layer, byte offset), mismatched files are
/// called mismatched, the cfg's diagnostics reach the caller, and every error type reads the
/// same through `description` and `localizedDescription`.
final class ErrorMessageTests: XCTestCase {
    static let cfgName = "plan.cfg"
    /// `[net]` 8x8x3: four lines, so the first layer's header is line 5.
    static let net = "[net]\nwidth=8\nheight=8\nchannels=3\n"

    // MARK: - Plan errors

    /// The name of a reason's case; the exhaustive switch makes a new reason fail to compile
    /// until it is named here (and so given a row below).
    static func name(_ reason: PlanError.Reason) -> String {
        switch reason {
        case .windowLargerThanInput: "windowLargerThanInput"
        case .channelsNotDivisibleByGroups: "channelsNotDivisibleByGroups"
        case .routeSizeMismatch: "routeSizeMismatch"
        case .shortcutShapeMismatch: "shortcutShapeMismatch"
        case .scaleShapeMismatch: "scaleShapeMismatch"
        case .yoloChannelMismatch: "yoloChannelMismatch"
        case .gaussianYoloChannelMismatch: "gaussianYoloChannelMismatch"
        case .contrastiveSourceNotYolo: "contrastiveSourceNotYolo"
        case .reorgReverseChannelsNotDivisible: "reorgReverseChannelsNotDivisible"
        case .regionChannelMismatch: "regionChannelMismatch"
        case .detectionSizeMismatch: "detectionSizeMismatch"
        case .reorgNotDivisible: "reorgNotDivisible"
        case .cropLargerThanInput: "cropLargerThanInput"
        case .softmaxGroupsNotDividing: "softmaxGroupsNotDividing"
        case .treeClassCountMismatch: "treeClassCountMismatch"
        case .sizeOverflow: "sizeOverflow"
        case .memoryLimitExceeded: "memoryLimitExceeded"
        case .calibrationMismatch: "calibrationMismatch"
        case .cpuMismatch: "cpuMismatch"
        }
    }

    static let allReasonNames: Set<String> = [
        "windowLargerThanInput", "channelsNotDivisibleByGroups", "routeSizeMismatch", "shortcutShapeMismatch",
        "scaleShapeMismatch", "yoloChannelMismatch", "regionChannelMismatch", "detectionSizeMismatch", "reorgNotDivisible", "cropLargerThanInput",
        "softmaxGroupsNotDividing", "treeClassCountMismatch", "sizeOverflow", "memoryLimitExceeded",
        "gaussianYoloChannelMismatch", "contrastiveSourceNotYolo", "reorgReverseChannelsNotDivisible",
        "calibrationMismatch", "cpuMismatch",
    ]

    /// One row per reason (two for the overflow: in a layer and in the network): the cfg, and
    /// the start of the message up to the reason's own words.
    static let planRows: [(cfg: String, memoryLimit: Int, message: String)] = [
        (net + "[convolutional]\nfilters=4\nsize=11\n", 4 << 30,
         "plan.cfg:5: layer 0 [convolutional]: window 11x11 is larger than the input"),
        (net + "[convolutional]\nfilters=4\ngroups=2\n", 4 << 30,
         "plan.cfg:5: layer 0 [convolutional]: input channels 3 are not divisible by groups 2"),
        (net + "[convolutional]\nfilters=2\n[maxpool]\nsize=2\nstride=2\n[route]\nlayers=-1,0\n", 4 << 30,
         "plan.cfg:10: layer 2 [route]: route inputs differ in size"),
        ("[net]\nwidth=9\nheight=4\nchannels=3\n[convolutional]\nfilters=4\n[convolutional]\nfilters=4\nstride=3\n[shortcut]\nfrom=-2\n",
         4 << 30, "plan.cfg:10: layer 2 [shortcut]: shortcut shapes differ"),
        (net + "[convolutional]\nfilters=4\n[convolutional]\nfilters=8\n[sam]\nfrom=-2\n", 4 << 30,
         "plan.cfg:9: layer 2 [sam]: cannot multiply the previous layer's"),
        (net + "[convolutional]\nfilters=5\n[yolo]\nmask=0\nanchors=1,2\nclasses=1\n", 4 << 30,
         "plan.cfg:7: layer 1 [yolo]: input has 5 channels, expected len(mask) * (classes + 5) = 6"),
        (net + "[convolutional]\nfilters=24\n[region]\nnum=1\nclasses=20\n", 4 << 30,
         "plan.cfg:7: layer 1 [region]: input has 24 channels, expected num * (classes + 5) = 25"),
        (net + "[detection]\nside=2\nnum=1\nclasses=3\ncoords=4\n", 4 << 30,
         "plan.cfg:5: layer 0 [detection]: input has 192 values, expected side * side * (classes + num * 5) = 32"),
        (net + "[reorg]\nstride=3\n", 4 << 30, "plan.cfg:5: layer 0 [reorg]: input"),
        (net + "[convolutional]\nfilters=5\n[Gaussian_yolo]\nmask=0\nanchors=1,2\nclasses=1\n", 4 << 30,
         "plan.cfg:7: layer 1 [Gaussian_yolo]: input has 5 channels, expected len(mask) * (classes + 9) = 10"),
        (net + "[convolutional]\nfilters=4\n[maxpool]\n[contrastive]\nyolo_layer=-1\n", 4 << 30,
         "plan.cfg:8: layer 2 [contrastive]: yolo_layer is layer 1, a [maxpool], not a [yolo] layer"),
        (net + "[reorg3d]\nstride=2\nreverse=1\n", 4 << 30,
         "plan.cfg:5: layer 0 [reorg3d]: 3 input channels cannot be reorganised in reverse with stride 2"),
        (net + "[crop]\ncrop_width=9\ncrop_height=2\n", 4 << 30, "plan.cfg:5: layer 0 [crop]: crop 9x2 is larger than the input"),
        (net + "[softmax]\ngroups=5\n", 4 << 30, "plan.cfg:5: layer 0 [softmax]: groups 5 do not divide the 192 input values"),
        (net + "[softmax]\ntree=\(TestPaths.darknetData.path)/9k.tree\n", 4 << 30,
         "plan.cfg:5: layer 0 [softmax]: input has 192 values, expected one per class of the tree = 9418"),
        (net + "[maxpool]\n[upsample]\nstride=100000\n", 4 << 30, "plan.cfg:6: layer 1 [upsample]: tensor sizes overflow"),
        ("[net]\nwidth=65536\nheight=65536\nchannels=1\n[maxpool]\n", 4 << 30, "plan.cfg:1: network: tensor sizes overflow"),
        (net + "[convolutional]\nfilters=4\n", 100,
         "plan.cfg:1: network: needs \(1856 + pointwiseScratchBytes(channels: 3, filters: 4, plane: 64)) bytes, more than the limit of 100 bytes"),
    ]

    func testEveryPlanErrorReasonNamesTheCfgFileAndTheSectionLine() throws {
        var covered: Set<String> = []
        for row in Self.planRows {
            let spec = try NetworkSpec.parse(text: row.cfg, file: Self.cfgName)
            XCTAssertThrowsError(try NetworkPlan(spec: try spec.loadingClassTrees(), options: PlanOptions(memoryLimit: row.memoryLimit)),
                                 row.message) { error in
                guard let error = error as? PlanError else { return XCTFail("\(error)") }
                covered.insert(Self.name(error.reason))
                XCTAssertEqual(error.file, Self.cfgName)
                XCTAssertTrue(error.description.hasPrefix(row.message), "\(error.description)\ndoes not start with\n\(row.message)")
                XCTAssertEqual(error.localizedDescription, error.description)
            }
        }
        // An int8 calibration for another input size (it needs `PlanOptions.precision`).
        let calibration = Int8Calibration(cfg: Self.cfgName, inputShape: TensorShape(channels: 3, height: 8, width: 8),
                                          imageCount: 1, layers: [Int8Calibration.Layer(layer: 0, input: TensorShape(channels: 3, height: 4, width: 4),
                                                                                        minimum: 0, maximum: 1)])
        let spec = try NetworkSpec.parse(text: Self.net + "[convolutional]\nfilters=4\nactivation=leaky\n", file: Self.cfgName)
        XCTAssertThrowsError(try NetworkPlan(spec: spec, options: PlanOptions(precision: .int8(calibration, floatLayers: .none)))) { error in
            guard let error = error as? PlanError else { return XCTFail("\(error)") }
            covered.insert(Self.name(error.reason))
            XCTAssertEqual(error.description, "plan.cfg:5: layer 0 [convolutional]: the int8 calibration does not match: "
                           + "layer 0 was calibrated for a 4 x 4 x 3 input, it reads 8 x 8 x 3")
        }
        // A plan for another architecture's CPU: it plans, and refuses to load.
        let other: CPUFeatures = CPUFeatures.current.architecture == .arm64 ? .x86_64(avx512VNNI: true) : .arm64(dotProduct: true)
        let foreign = try NetworkPlan(spec: spec, options: PlanOptions(cpu: other))
        XCTAssertEqual(foreign.cpu, other)
        XCTAssertThrowsError(try Network(spec: spec, weights: try WeightsWriter().randomBytes(for: spec, seed: 1),
                                         options: PlanOptions(cpu: other))) { error in
            guard let error = error as? PlanError else { return XCTFail("\(error)") }
            covered.insert(Self.name(error.reason))
            XCTAssertTrue(error.description.hasPrefix("plan.cfg:1: network: planned for another CPU (\(other.architecture.rawValue) ["),
                          error.description)
        }
        XCTAssertEqual(covered, Self.allReasonNames, "every PlanError reason has a row")
    }

    /// The example: YOLOv3-tiny with its first head's convolution cut to 200 filters.
    func testAYoloChannelMismatchInARealCfgNamesTheFileAndLine() throws {
        let url = try TestPaths.require(TestPaths.tinyCfg)
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "filters=255", with: "filters=200", options: [], range: text.range(of: "filters=255"))
        let spec = try NetworkSpec.parse(text: text, file: "yolo-channels.cfg")
        XCTAssertThrowsError(try NetworkPlan(spec: spec)) { error in
            XCTAssertEqual("\(error)", "yolo-channels.cfg:132: layer 16 [yolo]: input has 200 channels, expected len(mask) * (classes + 5) = 255")
        }
    }

    // MARK: - Diagnostics reach the caller

    static let misspelt = net + "[convolutional]\nfiltres=16\nsize=3\n[yolo]\nmask=0\nanchors=1,2\nclasses=1\n"

    func testDiagnosticsArePartOfALoadingErrorsMessage() throws {
        let spec = try NetworkSpec.parse(text: Self.misspelt, file: "key.cfg")
        XCTAssertThrowsError(try NetworkPlan(spec: spec)) { error in
            XCTAssertEqual("\(error)", "key.cfg:8: layer 1 [yolo]: input has 1 channels, expected len(mask) * (classes + 5) = 6"
                           + " (note: key.cfg:6: 'filtres': unknown key in [convolutional]; ignored)")
        }
        // A weights error carries them too.
        let fine = try NetworkSpec.parse(text: Self.net + "[convolutional]\nfilters=2\nsize=1\nbogus=3\n", file: "key.cfg")
        XCTAssertThrowsError(try Network(spec: fine, weights: WeightsWriter().header(), weightsName: "k.weights")) { error in
            guard let error = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.notes.map(\.key), ["bogus"])
            XCTAssertTrue(error.description.hasSuffix("(note: key.cfg:8: 'bogus': unknown key in [convolutional]; ignored)"),
                          error.description)
        }
    }

    func testStrictLoadingRejectsUnknownAndRepeatedKeys() throws {
        let strict = PlanOptions(rejectsUnknownKeys: true)
        let unknown = try NetworkSpec.parse(text: Self.misspelt, file: "key.cfg")
        XCTAssertThrowsError(try Network(spec: unknown, randomSeed: 1, options: strict)) { error in
            XCTAssertEqual(error as? CfgError, CfgError(file: "key.cfg", line: 6, key: "filtres",
                                                         reason: .rejectedKey(.unknownKey, section: "convolutional")))
            XCTAssertEqual("\(error)", "key.cfg:6: 'filtres': unknown key in [convolutional] (an error with strict checking)")
        }
        let repeated = try NetworkSpec.parse(text: Self.net + "[maxpool]\nsize=2\nsize=3\n", file: "key.cfg")
        XCTAssertThrowsError(try Network(spec: repeated, weights: WeightsWriter().header(), options: strict)) { error in
            XCTAssertEqual((error as? CfgError)?.reason, .rejectedKey(.repeatedKey, section: "maxpool"))
            XCTAssertEqual((error as? CfgError)?.line, 7)
        }
        // Without the option they stay diagnostics.
        XCTAssertNoThrow(try Network(spec: repeated, weights: WeightsWriter().header()))
    }
}

// MARK: - Weights of another cfg

extension ErrorMessageTests {
    func loadError(cfg name: String, weights: [UInt8]) throws -> WeightsError? {
        let url = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent(name))
        let spec = try NetworkSpec.parse(bytes: [UInt8](try Data(contentsOf: url)), file: name)
        do {
            _ = try Network(spec: spec, weights: weights, weightsName: "yolov3-tiny.weights")
            return nil
        } catch let error as WeightsError {
            return error
        }
    }

    /// The pair: YOLOv2-tiny's cfg with YOLOv3-tiny's weights used to fail on a
    /// "negative variance" read from the wrong place; the size says it first.
    func testYoloV2TinyCfgWithYoloV3TinyWeightsIsASizeMismatch() throws {
        let cfg = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent("yolov2-tiny.cfg"))
        let weights = try TestPaths.require(TestPaths.tinyWeights)
        XCTAssertThrowsError(try Network(cfg: cfg, weights: weights)) { error in
            guard let error = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.sizeMismatch, WeightsSizeMismatch(neededBytes: 44_948_600, headerBytes: 20, fileBytes: 35_434_956))
            XCTAssertEqual(error.layer, 13)
            guard case .truncated(let parameter, _, _) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(parameter, "weights")
            XCTAssertTrue(error.description.hasPrefix(weights.path + ": the cfg needs 44,948,600 bytes of weights (header 20), "
                                                      + "the file has 35,434,956: the weights belong to another cfg"), error.description)
            XCTAssertTrue(error.description.contains("it ends inside layer 13's weights at byte offset 25,202,132"), error.description)
        }
    }

    /// The expected size is exact: YOLOv3-tiny's own file is what its cfg needs, to the byte;
    /// four more bytes, or a classifier's cfg, are another cfg's weights.
    func testTheNeededSizeIsExactAndALargerFileBelongsToAnotherCfg() throws {
        let weights = [UInt8](try Data(contentsOf: try TestPaths.require(TestPaths.tinyWeights)))
        XCTAssertNil(try loadError(cfg: "yolov3-tiny.cfg", weights: weights))
        let extra = try XCTUnwrap(try loadError(cfg: "yolov3-tiny.cfg", weights: weights + [0, 0, 0, 0]))
        XCTAssertEqual(extra.sizeMismatch, WeightsSizeMismatch(neededBytes: weights.count, headerBytes: 20, fileBytes: weights.count + 4))
        XCTAssertEqual(extra.reason, .trailingBytes(count: 4))
        XCTAssertEqual(extra.offset, weights.count)
        let classifier = try XCTUnwrap(try loadError(cfg: "tiny.cfg", weights: weights))
        XCTAssertEqual("\(classifier)", "yolov3-tiny.weights: the cfg needs 4,185,972 bytes of weights (header 20), the file has "
                       + "35,434,956: the weights belong to another cfg (31,248,984 bytes left over after the last layer, "
                       + "from byte offset 4,185,972)")
    }

    /// A shorter file: ending on a layer boundary, inside a float, or on a whole float.
    func testAShorterFileSaysWhereItEndsAndWhatThatSuggests() throws {
        let spec = try NetworkSpec.parse(text: Self.net + "[convolutional]\nfilters=2\nsize=1\n[maxpool]\n[convolutional]\nfilters=2\nsize=1\n",
                                         file: "short.cfg")
        let good = try WeightsWriter().randomBytes(for: spec, seed: 1)
        // Header 20, layer 0: 2 biases + 2 x 3 weights, layer 2: 2 biases + 2 x 2 weights.
        XCTAssertEqual(good.count, 20 + 8 * 4 + 6 * 4)
        func error(_ bytes: [UInt8]) -> WeightsError? {
            do { _ = try Network(spec: spec, weights: bytes, weightsName: "short.weights"); return nil } catch { return error as? WeightsError }
        }
        let partial = try XCTUnwrap(error(Array(good.prefix(52))))
        XCTAssertEqual(partial.sizeMismatch, WeightsSizeMismatch(neededBytes: 76, headerBytes: 20, fileBytes: 52, wholeLayers: 2))
        XCTAssertEqual("\(partial)", "short.weights: the cfg needs 76 bytes of weights (header 20), the file has 52: it holds the "
                       + "parameters of layers 0-1 only (a partial file such as darknet53.conv.74, or the weights of another cfg) "
                       + "(it ends inside layer 2's biases at byte offset 52: 8 bytes expected, 0 left)")
        let cut = try XCTUnwrap(error(Array(good.prefix(61))))
        XCTAssertEqual(cut.layer, 2)
        XCTAssertEqual(cut.offset, 60)
        XCTAssertTrue("\(cut)".contains("the file has 61: the file is truncated (it ends inside layer 2's weights at byte offset 60"), "\(cut)")
        let whole = try XCTUnwrap(error(Array(good.prefix(64))))
        XCTAssertTrue("\(whole)".contains("the file has 64: the weights belong to another cfg, or the file is truncated"), "\(whole)")
    }
}

// MARK: - Swift conventions

extension ErrorMessageTests {
    /// One case of each public error type: `localizedDescription` is the one-line description.
    func testLocalizedDescriptionIsTheMessageForEveryErrorType() throws {
        assertMessages([
            (CfgError(file: "a.cfg", line: 3, key: "size", reason: .missingKey), "a.cfg:3: 'size': required key is missing"),
            (PlanError(layer: 2, section: "route", reason: .sizeOverflow, file: "a.cfg", line: 9),
             "a.cfg:9: layer 2 [route]: tensor sizes overflow"),
            (WeightsError(file: "a.weights", layer: 1, offset: 40, reason: .nonFinite(parameter: "biases", element: 2)),
             "a.weights: layer 1, byte offset 40: biases[2] is not a finite number"),
            (FileError(path: "a.names", reason: "is a directory"), "a.names: is a directory"),
            (ImageFileError.corrupt(path: "<data>", reason: "IHDR: CRC error"), "<data>: damaged image data: IHDR: CRC error"),
            (ImageFileError.unsupportedFormat(path: "a.gif"), "a.gif: not a JPEG, PNG, BMP, TIFF, WebP, Netpbm or HEIF image"),
            (ImageFileError.unsupportedVariant(path: "a.webp", reason: "WebP: an animation (97x73); only still images are read"), "a.webp: cannot decode WebP: an animation (97x73); only still images are read"),
            (DetectorError.tooFewLabels(file: "a.names", labels: 2, classes: 80), "a.names: 2 labels for a network with 80 classes"),
            (ClassifierError.noOutputLayer(cfg: "c.cfg"), "c.cfg: the network has no layer other than [cost] to read predictions from"),
            (DetectorError.noDetectionHead(cfg: "c.cfg"), "c.cfg: the network has no [yolo] or [region] layer to decode detections from"),
            (DetectorError.classCountMismatch(cfg: "c.cfg", line: 12, layer: 3, classes: 2, expected: 80),
             "c.cfg:12: detection layer 3 has 2 classes, the last detection layer 80"),
            (InferenceError.noForwardPass, "no forward pass has run yet"),
            (DataFileError(file: "obj.data", line: 2, key: nil, reason: .malformedLine("names")),
             "obj.data:2: expected 'key = value' or a comment, found 'names'"),
            (ArgumentError(argument: "threads", value: "0", expected: "an integer >= 1"),
             "'threads': invalid value 0, expected an integer >= 1"),
            (Int8CalibrationError.noImages, "int8 calibration needs at least one image"),
            (PixelBufferError.invalidDimensions(width: 0, height: 4), "pixel buffer of 0x4: width and height must be positive"),
            (DetectionPipeline.Stopped(), "the detection pipeline has finished or stopped"),
            (ImageError.invalidDimensions(width: 0, height: 2, channels: 3), "invalid image dimensions 0x2 with 3 channels"),
        ])
    }

    /// A missing file and a directory read the same whichever file it is.
    func testTheSameFileProblemHasTheSameWordingForEveryFile() throws {
        let directory = try temporaryDirectory("wording")
        let cfg = directory.appendingPathComponent("ok.cfg")
        try Data((Self.net + "[maxpool]\n").utf8).write(to: cfg)
        let weights = directory.appendingPathComponent("ok.weights")
        try Data(WeightsWriter().header()).write(to: weights)
        func reason(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch let error as FileError { return error.reason } catch let error as ImageFileError {
                guard case .unreadable(_, let reason) = error else { return "\(error)" }
                return reason
            } catch { return "\(type(of: error)): \(error)" }
        }
        for (target, expected) in [(directory.appendingPathComponent("none"), "No such file or directory"), (directory, "is a directory")] {
            let reasons = [
                reason { _ = try Network(cfg: target, weights: weights) },
                reason { _ = try Network(cfg: cfg, weights: target) },
                reason { _ = try Detector.readLabels(target) },
                reason { _ = try DataFile(contentsOf: target) },
                reason { _ = try PlanarImage(contentsOf: target) },
            ]
            XCTAssertEqual(reasons, [String?](repeating: expected, count: reasons.count), target.path)
        }
    }
}

// MARK: - The misspelt key

extension ErrorMessageTests {
    /// `filtres=16` in YOLOv3-tiny's first layer: the weights no longer fit, and the message
    /// says so with the unknown key as a note (it used to be "variance[9] is negative").
    func testAMisspeltKeyIsANoteOfTheWeightsMismatchItCauses() throws {
        let url = try TestPaths.require(TestPaths.tinyCfg)
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "filters=16", with: "filtres=16", options: [], range: text.range(of: "filters=16"))
        let directory = try temporaryDirectory("key")
        let cfg = directory.appendingPathComponent("key.cfg")
        try Data(text.utf8).write(to: cfg)
        XCTAssertThrowsError(try Detector(cfg: cfg, weights: try TestPaths.require(TestPaths.tinyWeights))) { error in
            guard let error = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertNotNil(error.sizeMismatch)
            XCTAssertTrue(error.description.contains(": the weights belong to another cfg"), error.description)
            XCTAssertTrue(error.description.hasSuffix("(note: \(cfg.path):27: 'filtres': unknown key in [convolutional]; ignored)"),
                          error.description)
        }
    }
}
