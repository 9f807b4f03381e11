@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// `swift-darknet`'s conventions (issue 20): help on stdout with status 0, usage mistakes on
/// stderr with status 2, input errors with status 1, `--version`, `--data`, `--strict`; and
/// every subcommand's help lists every option it reads.
final class CommandLineTests: XCTestCase {
    /// Runs the built `swift-darknet` in the package's folder.
    func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        try SwiftDarknetTool.run(arguments, in: TestPaths.packageRoot, file: file, line: line)
    }

    func testHelpGoesToStdoutWithStatus0() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stdout.hasPrefix("usage: swift-darknet <command>"), "\(arguments): \(result.stdout)")
            XCTAssertEqual(result.stderr, "", "\(arguments)")
        }
        for arguments in [["help", "detect"], ["detect", "--help"], ["detect", "-h"], ["classify", "--cfg", "x", "--help"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stdout.hasPrefix("usage: swift-darknet \(arguments.first == "help" ? arguments[1] : arguments[0]) --cfg"),
                          "\(arguments): \(result.stdout)")
            XCTAssertEqual(result.stderr, "", "\(arguments)")
        }
        let version = try run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("swift-darknet "), version.stdout)
    }

    func testUsageMistakesExit2WithTheUsageOnStderr() throws {
        let cases: [([String], String)] = [
            ([], "usage: swift-darknet <command>"),
            (["frobnicate"], "swift-darknet: unknown command 'frobnicate'\nusage: swift-darknet <command>"),
            (["help", "frobnicate"], "swift-darknet: unknown command 'frobnicate'\nusage: swift-darknet <command>"),
            (["info"], "swift-darknet: missing --cfg\nusage: swift-darknet info --cfg FILE"),
            (["info", "--cfg", "a.cfg", "--bogus", "1"], "swift-darknet: unknown option --bogus\nusage: swift-darknet info"),
            (["detect", "--cfg", "a.cfg", "--weights", "b"], "swift-darknet: no image given\nusage: swift-darknet detect"),
            (["detect", "--cfg", "a", "--weights", "b", "--thresh", "2", "x.jpg"], "swift-darknet: --thresh must be a number in"),
            (["detect", "--cfg", "a", "--weights", "b", "--names", "n", "--data", "d", "x.jpg"],
             "swift-darknet: give --names or --data, not both\nusage: swift-darknet detect"),
            (["detect", "--cfg", "a", "--weights", "b", "--precision", "int8", "x.jpg"],
             "swift-darknet: --precision int8 needs calibration: --calibrate DIR (images) or --calibration FILE (saved)\nusage: swift-darknet detect"),
            (["video", "--cfg", "a", "--weights", "b", "--precision", "int8", "x.mp4"],
             "swift-darknet: --precision int8 needs calibration"),
            (["detect", "--cfg", "a", "--weights", "b", "--precision", "int4", "x.jpg"],
             "swift-darknet: --precision must be float32, bf16, fp16, int8 or auto, got 'int4'"),
            (["info", "--cfg", "a.cfg", "--precision", "fp16"], "swift-darknet: --precision is for info --plan"),
            (["info", "--cfg", "a.cfg", "--precision", "bf16"], "swift-darknet: --precision is for info --plan"),
            (["info", "--cfg", "a.cfg", "--plan", "--cpu", "pentium"], "swift-darknet: --cpu must be running or one of arm64, "),
            (["info", "--cfg", "a.cfg", "--plan", "--precision", "int8", "--calibrate", "d"],
             "swift-darknet: info plans without running the network: give --calibration FILE, not --calibrate"),
            (["detect", "--cfg", "a", "--weights", "b", "--precision", "int8", "--calibrate", "d", "--calibration", "f", "x.jpg"],
             "swift-darknet: give --calibrate DIR or --calibration FILE, not both"),
            (["detect", "--cfg", "a", "--weights", "b", "--calibrate", "d", "x.jpg"],
             "swift-darknet: --calibrate and --calibration are for --precision int8"),
            (["detect", "--cfg", "a", "--weights", "b", "--tiles", "640", "x.jpg"],
             "swift-darknet: --tiles must be auto or WIDTHxHEIGHT in pixels (e.g. 640x640), got '640'"),
            (["video", "--cfg", "a", "--weights", "b", "--tile-overlap", "0.1", "x.mp4"], "swift-darknet: --tile-overlap needs --tiles"),
            (["detect", "--cfg", "a", "--weights", "b", "--tiles", "auto", "--tile-merge", "union", "x.jpg"],
             "swift-darknet: --tile-merge must be nmm or nms, got 'union'"),
            (["detect", "--cfg", "a", "--weights", "b", "--no-full-image", "x.jpg"],
             "swift-darknet: --no-full-image and --tile-class-agnostic need --tiles"),
            (["map", "--cfg", "a", "--weights", "b"], "swift-darknet: missing --data"),
        ]
        for (arguments, start) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(start), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    /// A misspelt option is reported as unknown with the nearest declared one, even where a value
    /// follows it (a misspelt flag used to swallow the image name: "no image given"), and a
    /// usage mistake prints the mistake, the synopsis and where the help is: not the whole help.
    func testMisspeltOptionsAreNamedWithTheNearestOne() throws {
        let model = ["--cfg", "a", "--weights", "b"]
        let cases: [([String], String)] = [
            (["detect"] + model + ["--jsn", "dog.jpg"], "unknown option --jsn (did you mean --json?)"),
            (["video"] + model + ["--jsn", "pan.mp4"], "unknown option --jsn (did you mean --json?)"),
            (["detect"] + model + ["--tresh", "0.3", "dog.jpg"], "unknown option --tresh (did you mean --thresh?)"),
            (["classify"] + model + ["--recursiv", "photos"], "unknown option --recursiv (did you mean --recursive?)"),
            (["detect"] + model + ["--frobnicate", "dog.jpg"], "unknown option --frobnicate"),
            (["detect"] + model + ["--json=yes", "dog.jpg"], "--json is a flag and takes no value"),
            (["detcet"] + model, "unknown command 'detcet' (did you mean 'detect'?)"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "swift-darknet: \(message)", "\(arguments): \(result.stderr)")
            if arguments[0] != "detcet" {
                XCTAssertEqual(lines.count, 3, "the mistake, the synopsis, the pointer: \(result.stderr)")
                XCTAssertTrue(lines[1].hasPrefix("usage: swift-darknet \(arguments[0]) --cfg FILE|URL --weights FILE|URL [options]"),
                              result.stderr)
                XCTAssertEqual(lines[2], "Run 'swift-darknet \(arguments[0]) --help' for the options.")
            }
        }
    }

    /// Darknet's own command lines: files by position in Darknet's order (`.data`, `.cfg`,
    /// `.weights`) give what the options give, its two-word commands run the commands they are
    /// here, and its single-dash options are usage mistakes naming ours instead of image names.
    func testDarknetsOwnCommandLines() throws {
        let coco = try TestPaths.require(URL(fileURLWithPath: "/usr/share/darknet/cfg/coco.data")).path
        let cfg = "Weights/darknet/cfg/yolov3-tiny.cfg", image = "Weights/darknet/data/dog.jpg"
        let weights = try TestPaths.require(TestPaths.tinyWeights).path
        let withData = try run(["detect", "--cfg", cfg, "--weights", weights, "--json", image, "--data", coco])
        XCTAssertEqual(withData.status, 0, withData.stderr)
        XCTAssertTrue(withData.stdout.contains(#""class": 16, "label": "dog""#), withData.stdout)
        let indices = try run(["detect", "--cfg", cfg, "--weights", weights, "--json", image])
        XCTAssertTrue(indices.stdout.contains(#""class": 16, "label": "16""#), indices.stdout)
        // Without a .data file, Darknet's form reads Debian's coco.data as `darknet detect` does
        // (this folder has no cfg/coco.data).
        for arguments in [["detect", cfg, weights, "--json", image], ["detect", "--json", cfg, "--weights", weights, image],
                          ["detect", coco, cfg, weights, "--json", image], ["detect", "--json", coco, cfg, "--weights", weights, image],
                          ["detector", "test", coco, cfg, weights, image, "--json"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "\(arguments)")
            XCTAssertEqual(result.stdout, withData.stdout, "\(arguments)")
        }
        // Each two-word command reaches its command: the first file it reads is the one named.
        let missing: [([String], String)] = [
            (["map", "no/such.data", cfg, weights], "no/such.data"),
            (["detector", "map", "no/such.data", cfg, weights], "no/such.data"),
            (["detector", "valid", "no/such.data", cfg, weights], "no/such.data"),
            (["detector", "recall", "no/such.data", cfg, weights], "no/such.data"),
            (["detector", "demo", coco, cfg, weights, "no/such.mp4"], "no/such.mp4"),
            (["classifier", "predict", "Weights/darknet/cfg/imagenet1k.data", "Weights/darknet/cfg/darknet.cfg",
              "no/such.weights", image], "no/such.weights"),
            (["classifier", "demo", "Weights/darknet/cfg/imagenet1k.data", "Weights/darknet/cfg/darknet.cfg",
              weights, "no/such.mp4"], "no/such.mp4"),
        ]
        for (arguments, file) in missing {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("swift-darknet: ") && result.stderr.contains(file), "\(arguments): \(result.stderr)")
        }
        let mistakes: [([String], String)] = [
            (["detect", cfg, weights, image, "-thresh", "0.1"], "unknown option -thresh (did you mean --thresh?)"),
            (["detect", cfg, weights, "-map", image], "unknown option -map (options start with --)"),
            (["detect", cfg, weights, "-dont_show", image], "unknown option -dont_show (swift-darknet opens no window: leave it out)"),
            (["detector", "test", coco, cfg, weights, "-ext_output", image],
             "unknown option -ext_output (--json prints each box's coordinates)"),
            (["detect", cfg, weights, "--list", "list.txt", "-out", "result.json"], "unknown option -out (pjreddie's -out IMAGE is --out IMAGE.jpg here, AlexeyAB's -out FILE.json is --out-json)"),
            (["detector", "valid", "obj.data", cfg, weights, "-out", "mine_"], "unknown option -out (did you mean --out?)"),
            (["detector", "demo", coco, cfg, weights, "pan.mp4", "-out_filename", "x.mp4"],
             "unknown option -out_filename (Darknet's -out_filename is --out here)"),
            (["detector", "demo", coco, cfg, weights, "-c", "0"], "unknown option -c (Darknet's camera index -c N is --camera N here)"),
            (["detector", "demo", coco, cfg, weights, "-w", "1280"],
             "unknown option -w (a camera's frame size is --input-option video_size=WxH here)"),
            (["detector", "demo", coco, cfg, weights],
             "no video input given: a file, a URL or --camera N (Darknet's demo without a file reads camera 0)"),
            (["video", cfg, weights, "--camera", "0", "pan.mp4"], "--camera and INPUT exclude each other"),
            (["video", cfg, weights, "--input-option", "video_size", "pan.mp4"],
             "--input-option takes KEY=VALUE (video_size=1280x720), got 'video_size'"),
            (["map", "obj.data", cfg, weights, "-iou_thresh", "0.75"], "unknown option -iou_thresh (did you mean --iou-thresh?)"),
            (["detector", "train", coco, cfg], "unknown command 'detector train' (Darknet's detector commands here: demo, map, recall, test, valid)"),
            (["classifier"], "unknown command 'classifier' (Darknet's classifier commands here: demo, predict, valid)"),
            (["classifier", "demo", "Weights/darknet/cfg/imagenet1k.data", "Weights/darknet/cfg/darknet.cfg", weights, "-c", "1"],
             "unknown option -c (Darknet's camera index -c N is --camera N here)"),
            (["classifier", "demo", "Weights/darknet/cfg/imagenet1k.data", "Weights/darknet/cfg/darknet.cfg", weights],
             "no video input given: a file, a URL or --camera N (Darknet's demo without a file reads camera 0)"),
            (["classify-video", cfg, weights, "--top", "0", "pan.mp4"], "--top must be an integer in 1...100000, got '0'"),
            (["-i", "1", "detect", cfg, weights, image], "unknown option -i (Darknet's GPU choice: swift-darknet runs on the CPU, leave it out)"),
            (["detect", "--cfg", cfg, "--weights", weights], "no image given"),
            (["detect", weights, cfg, image], "missing --cfg"),
        ]
        for (arguments, message) in mistakes {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init), "swift-darknet: \(message)", "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    func testInputErrorsExit1AndNameTheFile() throws {
        let missing = try run(["info", "--cfg", "no/such.cfg"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "swift-darknet: \(TestPaths.packageRoot.path)/no/such.cfg: No such file or directory\n")
        let directory = try run(["info", "--cfg", "Weights"])
        XCTAssertEqual(directory.status, 1)
        XCTAssertEqual(directory.stderr, "swift-darknet: \(TestPaths.packageRoot.path)/Weights: is a directory\n")
        // An image of a batch: named once, by the error, however it was given.
        for image in ["no/such.jpg", "\(TestPaths.packageRoot.path)/no/such.jpg"] {
            let photo = try run(["detect"] + TestPaths.tinyModelArguments() + [image])
            XCTAssertEqual(photo.status, 1)
            XCTAssertEqual(photo.stderr, "swift-darknet: \(TestPaths.packageRoot.path)/no/such.jpg: No such file or directory\n")
        }
    }

    func testDetectWithADataFileAndStrictKeys() throws {
        let coco = try TestPaths.require(URL(fileURLWithPath: "/usr/share/darknet/cfg/coco.data"))
        _ = try TestPaths.require(TestPaths.tinyWeights)
        let detect = try run(["detect", "--cfg", "Weights/darknet/cfg/yolov3-tiny.cfg", "--weights", "Weights/yolov3-tiny.weights",
                              "--data", coco.path, "--json", "Weights/darknet/data/dog.jpg"])
        XCTAssertEqual(detect.status, 0, detect.stderr)
        XCTAssertTrue(detect.stdout.contains(#""label": "dog""#), detect.stdout)
        let voc = try run(["detect", "--cfg", "Weights/darknet/cfg/yolov3-tiny.cfg", "--weights", "Weights/yolov3-tiny.weights",
                           "--data", "/usr/share/darknet/cfg/voc.data", "Weights/darknet/data/dog.jpg"])
        XCTAssertEqual(voc.status, 1)
        XCTAssertTrue(voc.stderr.contains("classes=20, but \(TestPaths.packageRoot.path)/Weights/darknet/cfg/yolov3-tiny.cfg has 80 classes"),
                      voc.stderr)

        let directory = try temporaryDirectory("cli")
        let cfg = directory.appendingPathComponent("key.cfg")
        try Data("[net]\nwidth=8\nheight=8\nchannels=3\n[maxpool]\nsize=2\nstrdie=2\n".utf8).write(to: cfg)
        let lenient = try run(["info", "--cfg", cfg.path])
        XCTAssertEqual(lenient.status, 0)
        XCTAssertEqual(lenient.stderr, "swift-darknet: warning: \(cfg.path):7: 'strdie': unknown key in [maxpool]; ignored\n")
        let strict = try run(["info", "--cfg", cfg.path, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.stderr, "swift-darknet: \(cfg.path):7: 'strdie': unknown key in [maxpool] (an error with strict checking)\n")
    }

    /// Every option a command reads (`arguments.string("x")`, `.flag`, `.int`, ...) appears in
    /// its help as `--x`.
    /// `forward --input-bin` given once per time step: one session, the recurrent state carried,
    /// each step's layers in DIR/stepNN/ equal to Darknet's.
    func testForwardRunsSeveralInputsAsTimeSteps() throws {
        let debian = TestPaths.fixtures.appendingPathComponent("debian")
        let dump = try temporaryDirectory("forward-steps").appendingPathComponent("dump")
        let steps = (0..<3).map { debian.appendingPathComponent(String(format: "gru/step%02d", $0)) }
        let result = try run(["forward", "--cfg", try TestPaths.require(debian.appendingPathComponent("cfg/gru.cfg")).path,
                              "--weights", debian.appendingPathComponent("weights/gru.weights").path, "--layers", "all",
                              "--dump", dump.path] + steps.flatMap { ["--input-bin", $0.appendingPathComponent("input.bin").path] })
        XCTAssertEqual(result.status, 0, result.stderr)
        for (step, reference) in steps.enumerated() {
            let directory = dump.appendingPathComponent(String(format: "step%02d", step))
            XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("layers.json").path))
            for layer in 0..<5 {
                let name = String(format: "layer%03d.bin", layer)
                let difference = maxAbsDifference(try readFloatFile(directory.appendingPathComponent(name)),
                                                  try readFloatFile(reference.appendingPathComponent(name)))
                XCTAssertLessThanOrEqual(difference, darknetLayerTolerance, "step \(step) \(name)")
            }
        }
    }

    /// `detect --precision int8`: calibrating on a folder and saving the sidecar, then loading
    /// it gives the same detections; a sidecar for another cfg is an input error naming it;
    /// `--stretch` calibrates on images fitted as it detects them.
    func testInt8DetectCalibratesSavesAndLoadsTheSidecar() throws {
        let folder = try temporaryDirectory("int8-cli")
        let sidecar = folder.appendingPathComponent("tiny.int8.json").path
        let model = ["detect", "--cfg", try TestPaths.require(TestPaths.tinyCfg).path,
                     "--weights", try TestPaths.require(TestPaths.tinyWeights).path, "--json", "--precision", "int8"]
        let image = try TestPaths.require(TestPaths.sample("dog.jpg")).path
        let calibration = try TestPaths.require(TestPaths.weights.appendingPathComponent("calibration")).path
        let calibrated = try run(model + ["--calibrate", calibration, "--save-calibration", sidecar, image])
        XCTAssertEqual(calibrated.status, 0, calibrated.stderr)
        XCTAssertTrue(calibrated.stderr.contains("int8 calibration on 6 images"), calibrated.stderr)
        // With bfloat16 products, the four layers kept from 8 bits run in bfloat16, not 16-bit integers.
        let bfloat16 = CPUFeatures.current.int8WithoutDotProduct ? nil : CPUFeatures.current.reducedKernels(for: .bfloat16)
        let expectedCount = CPUFeatures.current.int8WithoutDotProduct ? 4 : bfloat16 == nil ? 12 : 8
        XCTAssertTrue(calibrated.stderr.contains("int8: \(expectedCount) of 13 convolutions in integers"), calibrated.stderr)
        XCTAssertEqual(calibrated.stderr.contains("; 4 kept from 8 bits in bfloat16 (kernels: \(bfloat16.map(String.init(describing:)) ?? "")"),
                       bfloat16 != nil, calibrated.stderr)
        // Without a dot product the summary names what is missing: VNNI on x86-64, SDOT on arm64.
        let missing = CPUFeatures.compiledArchitecture == .arm64 ? "no dot product (SDOT)" : "no VNNI"
        XCTAssertEqual(calibrated.stderr.contains("this CPU has \(missing), so those with K"),
                       CPUFeatures.current.int8WithoutDotProduct, calibrated.stderr)
        XCTAssertTrue(calibrated.stdout.contains("\"detections\""), calibrated.stdout)
        let loaded = try run(model + ["--calibration", sidecar, image])
        XCTAssertEqual(loaded.status, 0, loaded.stderr)
        XCTAssertEqual(loaded.stdout, calibrated.stdout)
        // `forward --precision int8` runs the int8 plan: its head convolution's map is near the
        // float one (values up to 23.8 on dog.jpg; ONNX Runtime's and OpenVINO's int8 differ by
        // up to 3.4, Benchmarks/PERFORMANCE.md), not equal to it.
        var maps: [[Float]] = []
        for (name, precision) in [("float", [String]()), ("int8", ["--precision", "int8", "--calibration", sidecar])] {
            let dump = folder.appendingPathComponent("forward-\(name)")
            let forward = try run(["forward", "--cfg", try TestPaths.require(TestPaths.tinyCfg).path,
                                   "--weights", try TestPaths.require(TestPaths.tinyWeights).path, "--image", image,
                                   "--dump", dump.path, "--layers", "15"] + precision)
            XCTAssertEqual(forward.status, 0, forward.stderr)
            XCTAssertEqual(forward.stderr.contains("int8: \(expectedCount) of 13 convolutions in integers"), name == "int8",
                           forward.stderr)
            maps.append(try readFloatFile(dump.appendingPathComponent("layer015.bin")))
        }
        XCTAssertEqual(maps[0].count, maps[1].count)
        XCTAssertGreaterThan(maxAbsDifference(maps[0], maps[1]), 0)
        XCTAssertLessThan(maxAbsDifference(maps[0], maps[1]), 2.5)
        // Every convolution in int8 moves the confidences; a bad choice or float32 is a usage error.
        let allInt8 = try run(model + ["--calibration", sidecar, "--float-layers", "none", image])
        XCTAssertEqual(allInt8.status, 0, allInt8.stderr)
        XCTAssertTrue(allInt8.stdout.contains("\"detections\""), allInt8.stdout)
        XCTAssertNotEqual(allInt8.stdout, loaded.stdout)
        XCTAssertTrue(allInt8.stderr.contains("int8: 13 of 13 convolutions in integers (0 of them in 16 bits)\n"), allInt8.stderr)
        let unknown = try run(model + ["--calibration", sidecar, "--float-layers", "some", image])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("--float-layers must be default, float-early, input-and-heads or none, got 'some'"), unknown.stderr)
        let floatRun = try run(Array(model.dropLast(2)) + ["--float-layers", "none", image])
        XCTAssertEqual(floatRun.status, 2)
        XCTAssertTrue(floatRun.stderr.contains("--float-layers is for --precision int8"), floatRun.stderr)
        let other = try run(["detect", "--cfg", TestPaths.darknetCfg.appendingPathComponent("yolov3.cfg").path,
                             "--weights", TestPaths.tinyWeights.path, "--precision", "int8", "--calibration", sidecar, image])
        XCTAssertEqual(other.status, 1)
        XCTAssertEqual(other.stderr, "swift-darknet: \(sidecar): calibration does not match the network: made for yolov3-tiny.cfg, not yolov3.cfg\n")

        // --stretch calibrates on stretched images, as it detects: its sidecar is the library's
        // calibration with `letterbox: false`, not the letterboxed one.
        let stretchedSidecar = folder.appendingPathComponent("tiny.stretched.int8.json")
        let stretched = try run(model + ["--stretch", "--calibrate", calibration, "--save-calibration", stretchedSidecar.path, image])
        XCTAssertEqual(stretched.status, 0, stretched.stderr)
        let float = try Network(cfg: TestPaths.tinyCfg, weights: TestPaths.tinyWeights)
        let expected = try Int8Calibration(network: float, imagesIn: URL(fileURLWithPath: calibration), letterbox: false)
        XCTAssertEqual(try Int8Calibration(contentsOf: stretchedSidecar, for: float.spec), expected)
        XCTAssertNotEqual(try Int8Calibration(contentsOf: URL(fileURLWithPath: sidecar), for: float.spec), expected)
    }

    func testClassifyTakesDirectoriesAndLists() throws {
        let zoo = TestPaths.fixtures.appendingPathComponent("zoo")
        let model = ["classify", "--cfg", try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")).path,
                     "--weights", try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")).path,
                     "--json", "--top", "3"]
        let folder = try temporaryDirectory("classify")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let files = [(TestPaths.sample("dog.jpg"), "a.jpg"),
                     (TestPaths.fixtures.appendingPathComponent("formats/bmp-24.bmp"), "c.bmp"),
                     (TestPaths.sample("eagle.jpg"), "sub/b.jpg")]
        for (source, name) in files {
            try FileManager.default.copyItem(at: try TestPaths.require(source), to: folder.appendingPathComponent(name))
        }
        let paths = files.map { folder.appendingPathComponent($0.1).path }
        let oneByOne = try run(model + paths)
        XCTAssertEqual(oneByOne.status, 0, oneByOne.stderr)
        let lines = oneByOne.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        for (line, path) in zip(lines, paths) {
            XCTAssertTrue(line.hasPrefix(#"{"image": "\#(path)""#), String(line))
        }
        let flat = try run(model + [folder.path])
        XCTAssertEqual(flat.stdout, lines.prefix(2).joined(separator: "\n") + "\n")
        let recursive = try run(model + ["--recursive", folder.path])
        XCTAssertEqual(recursive.stdout, oneByOne.stdout)
        let list = folder.appendingPathComponent("images.list")
        try Data(paths.joined(separator: "\n").utf8).write(to: list)
        let listed = try run(model + ["--list", list.path])
        XCTAssertEqual(listed.stdout, oneByOne.stdout)
        XCTAssertEqual(listed.status, 0, listed.stderr)

        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try run(model + [empty.path])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains(empty.path), none.stderr)
    }

    /// Darknet's one-word `detect` and `classify` read their labels from `cfg/coco.data` and
    /// `cfg/imagenet1k.data` in the working directory (pjreddie's Darknet run from its folder;
    /// Debian's build reads /usr/share/darknet/cfg): the same command line here labels its
    /// output from the same file, gives class indices with a warning when the file does not fit
    /// the network, and never reads it in the option form.
    func testDarknetFormReadsItsLabelsWhereDarknetDoes() throws {
        let folder = try temporaryDirectory("darknet-folder")
        for name in ["cfg", "data"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        // As in Darknet's folder: the names path relative to the working directory.
        try Data("classes= 80\nnames = data/coco.names\n".utf8).write(to: folder.appendingPathComponent("cfg/coco.data"))
        try Data((0..<80).map { "thing\($0)\n" }.joined().utf8).write(to: folder.appendingPathComponent("data/coco.names"))
        let shortNames = try TestPaths.require(TestPaths.sample("imagenet.shortnames.list")).path
        try Data("classes=1000\nnames=\(shortNames)\ntop=1\n".utf8).write(to: folder.appendingPathComponent("cfg/imagenet1k.data"))
        func run(_ arguments: [String]) throws -> ChildProcess.Result {
            let result = try SwiftDarknetTool.run(arguments, in: folder)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            return result
        }
        let cfg = TestPaths.tinyCfg.path, weights = try TestPaths.require(TestPaths.tinyWeights).path
        let image = try TestPaths.require(TestPaths.sample("dog.jpg")).path

        let darknetForm = try run(["detect", cfg, weights, image])
        XCTAssertEqual(darknetForm.stderr, "")
        XCTAssertTrue(darknetForm.stdout.contains("\nthing16: 56%\n"), darknetForm.stdout)
        // The first line is the image's timing.
        let named = try run(["detect", "--cfg", cfg, "--weights", weights, "--names", "data/coco.names", image])
        XCTAssertEqual(darknetForm.stdout.split(separator: "\n").dropFirst(), named.stdout.split(separator: "\n").dropFirst())
        let optionForm = try run(["detect", "--cfg", cfg, "--weights", weights, image])
        XCTAssertEqual(optionForm.stderr, "")
        XCTAssertTrue(optionForm.stdout.contains("\n16: 56%\n"), optionForm.stdout)

        // A 20-class network: coco.data's 80 classes do not fit it.
        let zoo = TestPaths.fixtures.appendingPathComponent("zoo")
        let voc = try run(["detect", try TestPaths.require(zoo.appendingPathComponent("cfg/yolov2-tiny-voc-416.cfg")).path,
                           try TestPaths.require(zoo.appendingPathComponent("weights/yolov2-tiny-voc.weights")).path,
                           "--thresh", "0", "--json", image])
        XCTAssertTrue(voc.stderr.hasPrefix("swift-darknet: warning: Darknet's detect reads its labels from \(folder.path)/cfg/coco.data: "),
                      voc.stderr)
        XCTAssertTrue(voc.stderr.hasSuffix("; labels are class indices; give --names FILE or --data FILE\n"), voc.stderr)
        XCTAssertFalse(voc.stdout.contains("thing"), voc.stdout)

        // `classify`: Darknet's 5 classes whatever the file's top=, as `darknet classify` asks for 5.
        let classifier = [try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")).path,
                          try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")).path]
        let classified = try run(["classify"] + classifier + [image])
        XCTAssertEqual(classified.stderr, "")
        XCTAssertEqual(classified.stdout.split(separator: "\n").count, 5, classified.stdout)
        XCTAssertEqual(classified.stdout,
                       try run(["classify", "--cfg", classifier[0], "--weights", classifier[1], "--names", shortNames, image]).stdout)
    }

    /// YOLOv1's own command, `darknet yolo test CFG WEIGHTS IMAGE`: `detect` with test_yolo's
    /// settings (stretched, threshold 0.2, NMS 0.4, boxes where the network puts them) and VOC's
    /// names, which Darknet compiles in, from `data/voc.names` (here, else Debian's). Its
    /// detections are Darknet's own `yolo test` ones, box for box.
    func testYoloTestIsYOLOv1sOwnCommand() throws {
        let debian = TestPaths.fixtures.appendingPathComponent("debian")
        let model = [try TestPaths.require(debian.appendingPathComponent("cfg/yolov1-tiny-224.cfg")).path,
                     try TestPaths.require(debian.appendingPathComponent("weights/yolov1-tiny-224.weights")).path]
        let reference = try JSONDecoder().decode(DarknetDetectionRecord.self, from: Data(contentsOf: try TestPaths.require(
            debian.appendingPathComponent("detect/yolov1-tiny-224-yolo-test-thresh-0.2.json"))))
        let image = TestPaths.packageRoot.appendingPathComponent(reference.image).path
        let yoloTest = try run(["yolo", "test"] + model + [image, "--json"])
        XCTAssertEqual(yoloTest.status, 0, yoloTest.stderr)
        XCTAssertEqual(yoloTest.stderr, "")
        let mine = try JSONDecoder().decode(DarknetDetectionRecord.self, from: Data(yoloTest.stdout.utf8))
        XCTAssertEqual(mine.detections.count, reference.detections.count)
        for (k, (a, b)) in zip(mine.detections, reference.detections).enumerated() {
            XCTAssertTrue(a.class == b.class && a.label == b.label && abs(a.prob - b.prob) <= 1e-3 * max(1, abs(b.prob))
                          && abs(a.x - b.x) <= 1 && abs(a.y - b.y) <= 1 && abs(a.w - b.w) <= 2 && abs(a.h - b.h) <= 2,
                          "#\(k): mine \(a), Darknet's \(b)")
        }
        let voc = try TestPaths.require(URL(fileURLWithPath: "/usr/share/darknet/data/voc.names")).path
        let spelledOut = try run(["detect", "--cfg", model[0], "--weights", model[1], "--stretch", "--thresh", "0.2", "--hier", "0",
                                  "--nms", "0.4", "--yolov1-boxes", "yolo-test", "--names", voc, image, "--json"])
        XCTAssertEqual(spelledOut.stdout, yoloTest.stdout)

        // Options given after it override its settings; a folder's own data/voc.names is read first.
        let folder = try temporaryDirectory("yolo-test")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data((0..<20).map { "voc\($0)\n" }.joined().utf8).write(to: folder.appendingPathComponent("data/voc.names"))
        let stricter = try SwiftDarknetTool.run(["yolo", "test"] + model + [image, "--thresh", "1"], in: folder)
        XCTAssertEqual(stricter.status, 0, stricter.stderr)
        let lines = stricter.stdout.split(separator: "\n").dropFirst()
        XCTAssertEqual(lines.count, reference.detections.filter { $0.prob > 1 }.count)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("voc") }, stricter.stdout)

        let unknown = try run(["yolo", "train"] + model)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.hasPrefix("swift-darknet: unknown command 'yolo train' (Darknet's yolo commands here: test)"),
                      unknown.stderr)
    }

    /// Without an image, Darknet's `detect CFG WEIGHTS` and `classify CFG WEIGHTS` ask for
    /// image paths ("Enter Image Path: " before each line of stdin, to its end), as Darknet's
    /// do: each path gives what it gives on the command line. The option form still needs one.
    func testDarknetFormWithoutAnImagePromptsForImagePaths() throws {
        let cfg = "Weights/darknet/cfg/yolov3-tiny.cfg", weights = try TestPaths.require(TestPaths.tinyWeights).path
        let dog = "Weights/darknet/data/dog.jpg", eagle = "Weights/darknet/data/eagle.jpg"
        func typed(_ arguments: [String], _ lines: [String]) throws -> ChildProcess.Result {
            try SwiftDarknetTool.run(arguments, in: TestPaths.packageRoot, input: Data(lines.map { $0 + "\n" }.joined().utf8))
        }
        let prompt = "Enter Image Path: "

        // --json: the prompt on stderr, stdout as for the images given; an empty line is asked again.
        let given = try run(["detect", cfg, weights, "--json", dog, eagle])
        XCTAssertEqual(given.status, 0, given.stderr)
        let prompted = try typed(["detect", cfg, weights, "--json"], [dog, "", "  " + eagle])
        XCTAssertEqual(prompted.status, 0, prompted.stderr)
        XCTAssertEqual(prompted.stdout, given.stdout)
        XCTAssertEqual(prompted.stderr, String(repeating: prompt, count: 4))

        // Text: the prompt on stdout, as Darknet prints it; a path that fails is reported and
        // the prompt comes back; the exit status says one failed.
        let text = try typed(["detect", cfg, weights], [dog, "no/such.jpg"])
        XCTAssertEqual(text.status, 1, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix(prompt + dog + ": Predicted in "), text.stdout)
        XCTAssertTrue(text.stdout.contains("\ndog: 56%\n"), text.stdout)
        XCTAssertTrue(text.stdout.hasSuffix("\n" + prompt + prompt), text.stdout)
        XCTAssertTrue(text.stderr.contains("no/such.jpg"), text.stderr)

        let zoo = TestPaths.fixtures.appendingPathComponent("zoo")
        let classifier = [try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")).path,
                          try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")).path]
        let classified = try run(["classify"] + classifier + [dog])
        XCTAssertEqual(classified.status, 0, classified.stderr)
        let classifiedTyped = try typed(["classify"] + classifier, [dog])
        XCTAssertEqual(classifiedTyped.stdout, prompt + classified.stdout + prompt)

        let outJSON = try typed(["detect", cfg, weights, "--out-json", "result.json"], [dog])
        XCTAssertEqual(outJSON.status, 2)
        XCTAssertTrue(outJSON.stderr.hasPrefix(
            "swift-darknet: --out-json needs IMAGE or --list: it is not written for paths typed at Darknet's prompt\n"), outJSON.stderr)
    }

    /// Without `--top`, a `.data` file's `top=` sets the count (1 without one), as Darknet's
    /// `classifier predict` reads it; with `--names` the count is 5.
    func testClassifyTakesTopFromTheDataFileAsDarknet() throws {
        let zoo = TestPaths.fixtures.appendingPathComponent("zoo")
        let model = ["classify", "--cfg", try TestPaths.require(zoo.appendingPathComponent("cfg/darknet.cfg")).path,
                     "--weights", try TestPaths.require(zoo.appendingPathComponent("weights/darknet.weights")).path]
        let names = try TestPaths.require(TestPaths.sample("imagenet.shortnames.list")).path
        let image = try TestPaths.require(TestPaths.sample("dog.jpg")).path
        let folder = try temporaryDirectory("classify-top")
        func data(_ top: String?) throws -> String {
            let file = folder.appendingPathComponent("top-\(top ?? "none").data")
            try Data("classes=1000\nnames=\(names)\n\(top.map { "top=\($0)\n" } ?? "")".utf8).write(to: file)
            return file.path
        }
        for (arguments, lines) in [(["--data", try data(nil)], 1), (["--data", try data("3")], 3),
                                   (["--data", try data("3"), "--top", "2"], 2), (["--names", names], 5)] {
            let result = try run(model + arguments + [image])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout.split(separator: "\n").count, lines, "\(arguments): \(result.stdout)")
        }
        let zero = try data("0")
        let refused = try run(model + ["--data", zero, image])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "swift-darknet: \(zero):3: 'top': invalid value '0', expected an integer >= 1\n")
    }

    func testDetectWithTilesTheImagesSizeIsDetectAndAutoTilesLargeImages() throws {
        let model = ["detect", "--cfg", "Weights/darknet/cfg/yolov3-tiny.cfg", "--weights", "Weights/yolov3-tiny.weights",
                     "--names", "Weights/darknet/data/coco.names", "--json", "--thresh", "0.25", "Weights/darknet/data/dog.jpg"]
        let plain = try run(model)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let oneTile = try run(model + ["--tiles", "768x576", "--threads", "2"])
        XCTAssertEqual(oneTile.stdout, plain.stdout)
        let tiled = try run(model + ["--tiles", "auto", "--tile-merge", "nms", "--tile-metric", "iou", "--tile-threshold", "0.3"])
        XCTAssertEqual(tiled.status, 0, tiled.stderr)
        XCTAssertNotEqual(tiled.stdout, plain.stdout, "768x576 is 1.85 times 416 wide: two columns of tiles and the whole image")
        XCTAssertTrue(tiled.stdout.contains(#""label": "dog""#), tiled.stdout)
    }

    func testEveryCommandsHelpListsEveryOptionItReads() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources/swift-darknet")
        let pattern = try NSRegularExpression(pattern: #"arguments\.(?:string|required|flag|int|float)\("([a-z0-9-]+)""#)
        func options(in file: String) throws -> Set<String> {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            var found = Set(pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            })
            if text.contains("ThreadsFlag.read(") { found.formUnion(try options(in: "ThreadsFlag.swift")) }
            if text.contains("LabelFiles(arguments:") { found.formUnion(try options(in: "LabelFiles.swift")) }
            if text.contains("PrecisionFlags(arguments:") { found.formUnion(try options(in: "../CommandLineKit/PrecisionFlags.swift")) }
            if text.contains("DetectBatchOptions(arguments:") { found.formUnion(try options(in: "DetectBatchOptions.swift")) }
            if text.contains("ImageSourceFlags(arguments:") { found.formUnion(try options(in: "ImageSourceFlags.swift")) }
            if text.contains("TilingFlags(arguments:") { found.formUnion(try options(in: "TilingFlags.swift")) }
            if text.contains("EvaluationFlags(arguments:") { found.formUnion(try options(in: "EvaluationFlags.swift")) }
            if text.contains("VideoInputFlags(arguments:") { found.formUnion(try options(in: "VideoInputFlags.swift")) }
            if text.contains("ClassifierFlags(arguments:") { found.formUnion(try options(in: "ClassifierFlags.swift")) }
            return found
        }
        let commands = ["info": "InfoCommand.swift", "forward": "ForwardCommand.swift", "detect": "DetectCommand.swift",
                        "classify": "ClassifyCommand.swift", "video": "VideoCommand.swift", "map": "MapCommand.swift",
                        "valid": "ValidCommand.swift", "recall": "RecallCommand.swift", "heads": "HeadsCommand.swift",
                        "classify-video": "ClassifyVideoCommand.swift", "classify-valid": "ClassifyValidCommand.swift"]
        for (name, file) in commands {
            let read = try options(in: file)
            XCTAssertFalse(read.isEmpty, file)
            let help = try run(["help", name]).stdout
            for option in read.sorted() {
                XCTAssertTrue(help.contains("--\(option)"), "\(name) --help does not list --\(option):\n\(help)")
            }
        }
    }
}
