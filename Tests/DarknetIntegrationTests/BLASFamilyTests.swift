@_spi(Testing) import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// Every process computes a network with the same bits, whichever BLAS kernel family OpenBLAS
/// runs: swift-darknet (whose FFmpeg libraries load OpenBLAS at start-up), an application that
/// links only Darknet and DarknetImage (`darknet-library-probe`, which opens it on first use) and
/// this test process, under each family this CPU runs (`OPENBLAS_CORETYPE` set for the child) and
/// under OpenBLAS's own choice. A family gives other bits than another, but never another process
/// other bits than this one. Issue 57: the library once set `OPENBLAS_CORETYPE=SkylakeX` itself,
/// which only a process without FFmpeg honoured (OpenBLAS already chose Cooperlake in the others).
final class BLASFamilyTests: XCTestCase {
    /// The kernel families to run the children under: nil for OpenBLAS's own choice (the
    /// variable removed), then each family this CPU executes.
    static var families: [String?] {
        let running = CPUFeatures.Extensions.running
        switch CPUFeatures.compiledArchitecture {
        case .x86_64 where running.isSuperset(of: .avx512):
            return [nil, "SkylakeX", "Haswell"] + (running.contains(.avx512bf16) ? ["Cooperlake"] : [])
        case .x86_64 where running.contains(.avx2):
            return [nil, "Haswell", "Zen"]
        default:
            return [nil]
        }
    }

    func testCommandLineLibraryAndThisProcessComputeTheSameBitsUnderEveryFamily() throws {
        let cfg = try TestPaths.require(TestPaths.tinyCfg), weights = try TestPaths.require(TestPaths.tinyWeights)
        let image = try TestPaths.require(TestPaths.sample("dog.jpg"))
        let probe = SwiftDarknetTool.url.deletingLastPathComponent().appendingPathComponent("darknet-library-probe")
        let folder = try temporaryDirectory("blas-families")
        let inherited = ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"]
        var tried: [String] = []
        for family in Self.families {
            let childEnvironment = family.map { ["OPENBLAS_CORETYPE": $0] } ?? [:]
            let unset = family == nil ? ["OPENBLAS_CORETYPE"] : []
            let name = family ?? "openblas-choice"
            // The command line on one thread, the library on two: neither the process nor the
            // thread count may change a bit.
            let commandLine = folder.appendingPathComponent("\(name)-cli"), library = folder.appendingPathComponent("\(name)-library")
            let forward = try ChildProcess.run(try SwiftDarknetTool.require(), [
                "forward", "--cfg", cfg.path, "--weights", weights.path, "--image", image.path,
                "--dump", commandLine.path, "--layers", "all", "--threads", "1"], environment: childEnvironment, unsetting: unset)
            XCTAssertEqual(forward.status, 0, forward.stderr)
            let info = try ChildProcess.run(try SwiftDarknetTool.require(), ["info", "--plan", cfg.path], environment: childEnvironment,
                                            unsetting: unset)
            XCTAssertEqual(info.status, 0, info.stderr)
            let probed = try ChildProcess.run(try TestPaths.require(probe), [cfg.path, weights.path, image.path, library.path, "2"],
                                              environment: childEnvironment, unsetting: unset)
            XCTAssertEqual(probed.status, 0, probed.stderr)
            // Both processes run the same family: the one asked for, or OpenBLAS's own.
            let libraryFamily = probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                .replacingOccurrences(of: "blas: ", with: "")
            XCTAssertTrue(info.stdout.contains(", BLAS \(libraryFamily)"), "\(name): the library ran \(libraryFamily); \(info.stdout.prefix(200))")
            if let family { XCTAssertEqual(libraryFamily.lowercased(), family.lowercased(), "OPENBLAS_CORETYPE=\(family)") }
            tried.append("\(name) -> \(libraryFamily)")
            let network = try Network(cfg: cfg, weights: weights)
            for index in network.plan.layers.indices {
                let file = String(format: "layer%03d.bin", index)
                let a = try Data(contentsOf: commandLine.appendingPathComponent(file))
                let b = try Data(contentsOf: library.appendingPathComponent(file))
                XCTAssertTrue(a == b, "\(name): layer \(index) differs between swift-darknet and the library (\(libraryFamily))")
                if a != b { break }
            }
            // This process, under the family the environment gave it, against a child under the same.
            if family == inherited || (family == nil && inherited == nil) {
                XCTAssertEqual(BLAS.kernelName, libraryFamily)
                let session = InferenceSession(network: network, retaining: .layers(Set(network.plan.layers.indices)))
                let input = try PlanarImage(contentsOf: image).letterboxed(width: 416, height: 416).image
                try session.forward(input.pixels)
                for index in network.plan.layers.indices {
                    let here = try session.withOutput(ofLayer: index) { values, _ in Data(buffer: values) }
                    let there = try Data(contentsOf: library.appendingPathComponent(String(format: "layer%03d.bin", index)))
                    XCTAssertTrue(here == there, "\(name): layer \(index) differs between this process and the library's child")
                    if here != there { break }
                }
            }
        }
        print("BLASFamilyTests: families compared (asked -> run): \(tried.joined(separator: ", "))")
    }

    /// Every kernel family OpenBLAS can be told to run with `OPENBLAS_CORETYPE` (0.3.21's
    /// `DYNAMIC_ARCH` names): a child under one the CPU cannot run dies (SIGILL) or runs another.
    static var forcibleFamilies: [String] {
        switch CPUFeatures.compiledArchitecture {
        case .x86_64:
            return ["SkylakeX", "Cooperlake", "SapphireRapids", "Haswell", "Zen", "Sandybridge", "Nehalem", "Prescott", "Core2",
                    "Penryn", "Dunnington", "Atom", "Barcelona", "Nano", "Bulldozer", "Piledriver", "Steamroller", "Excavator",
                    "Opteron", "Athlon", "Katmai", "Northwood", "Banias"]
        default:
            return ["ARMV8", "CortexA53", "CortexA55", "CortexA57", "CortexA72", "CortexA73", "NeoverseN1", "NeoverseV1", "NeoverseN2",
                    "ThunderX", "ThunderX2T99", "TSV110", "EMAG8180", "FALKOR", "A64FX"]
        }
    }

    /// The library decides whether a GEMM may be cut by threads from a table of OpenBLAS kernel
    /// families (`BLASFeatures.invariantFamilies`), so making `PlanOptions()` runs no GEMM. The
    /// table against the probe GEMM that measures it (`BLAS.measureCutsInvariantly()`): in this
    /// process, and in a child under OpenBLAS's own choice and under every family it can be
    /// forced to here. A family the table leaves out but the probe passes would only be slower;
    /// one it lists that fails would make results depend on the thread count: both fail here.
    func testInvariantFamilyTableAgreesWithTheProbeUnderEveryFamily() throws {
        XCTAssertEqual(BLASFeatures.current.cutsInvariantly, BLAS.measureCutsInvariantly(), "this process: \(BLAS.kernelName)")
        XCTAssertEqual(BLASFeatures.current.kernelFamily, BLAS.kernelName)
        let probe = SwiftDarknetTool.url.deletingLastPathComponent().appendingPathComponent("darknet-library-probe")
        var measured: [String: Bool] = [:], skipped: [String] = []
        for family in [nil] + Self.forcibleFamilies.map(Optional.some) {
            let child = try ChildProcess.run(try TestPaths.require(probe), ["--blas-cuts"],
                                             environment: family.map { ["OPENBLAS_CORETYPE": $0] } ?? [:],
                                             unsetting: family == nil ? ["OPENBLAS_CORETYPE"] : [])
            let name = family ?? "OpenBLAS's choice"
            guard child.status == 0 else {
                skipped.append("\(name) (status \(child.status))")
                continue
            }
            let lines = child.stdout.split(separator: "\n").map(String.init)
            guard lines.count == 2, lines[0].hasPrefix("blas: "), lines[1].hasPrefix("cuts invariantly: ") else {
                XCTFail("\(name): unexpected output '\(child.stdout)'")
                continue
            }
            let ran = String(lines[0].dropFirst("blas: ".count)), cuts = lines[1].hasSuffix("true")
            XCTAssertEqual(BLASFeatures(kernelFamily: ran).cutsInvariantly, cuts,
                           "OPENBLAS_CORETYPE=\(name) ran \(ran): the probe says \(cuts ? "it cuts invariantly" : "its sums depend on the cut"), "
                           + "BLASFeatures.invariantFamilies says otherwise")
            measured[ran] = cuts
        }
        XCTAssertFalse(measured.isEmpty)
        print("BLASFamilyTests: families measured (cuts invariantly): "
              + measured.keys.sorted().map { "\($0) \(measured[$0]!)" }.joined(separator: ", ")
              + "; not runnable here: " + (skipped.isEmpty ? "none" : skipped.joined(separator: ", ")))
    }

    /// The command line plans as the library's defaults do for a CPU and BLAS it is told to plan
    /// as (`info --plan --cpu --blas`), so an AVX2-only machine checks the AVX-512 plans too.
    func testCommandLinePlansAsTheLibraryDefaultsForEachCPUAndBLAS() throws {
        let cases: [(cpu: String, features: CPUFeatures, blas: String, invariant: Bool)] = [
            ("x86-64-avx512-vnni", .x86_64(avx512VNNI: true), "SkylakeX", true),
            ("x86-64-avx512-vnni", .x86_64(avx512VNNI: true), "Cooperlake", true),
            ("x86-64-avx512", .x86_64(avx512: true), "Haswell", false),
            ("x86-64-avx2", .x86_64(), "Haswell", false),
            ("x86-64-avx2", .x86_64(), "Zen", false),
            ("arm64-dotprod", .arm64(dotProduct: true), "ARMV8", true),
        ]
        for cfgName in ["yolov3-tiny.cfg", "yolov3.cfg"] {
            let cfg = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent(cfgName))
            let spec = try NetworkSpec.parse(contentsOf: cfg)
            for item in cases {
                var cpu = item.features
                cpu.blas = BLASFeatures(kernelFamily: item.blas, cutsInvariantly: item.invariant)
                let plan = try NetworkPlan(spec: spec, options: PlanOptions(cpu: cpu))
                let info = try SwiftDarknetTool.run(["info", "--plan", "--cpu", item.cpu, "--blas", item.blas, cfg.path])
                XCTAssertEqual(info.status, 0, info.stderr)
                let lines = info.stdout.split(separator: "\n")
                XCTAssertEqual(lines.first.map(String.init), "plan for \(cpu)")
                for layer in plan.layers {
                    guard let algorithm = layer.algorithm else { continue }
                    let line = lines.first { $0.hasPrefix(String(format: "%5d ", layer.index)) }
                    XCTAssertTrue(line?.hasSuffix("  \(algorithm) | \(layer.arithmetic): \(layer.arithmeticReason ?? "")") == true,
                                  "\(cfgName) as \(item.cpu) with \(item.blas): layer \(layer.index) is \(algorithm) in the library, "
                                  + "the command line says \(line ?? "nothing")")
                }
            }
        }
    }

    func testWarnsWhereOpenBLASFellBackBelowTheCPU() {
        XCTAssertNil(CPUFeatures.x86_64(avx512: true).blasWarning)
        XCTAssertNil(CPUFeatures.x86_64(blas: BLASFeatures(kernelFamily: "Zen", cutsInvariantly: false)).blasWarning)
        let fallback = CPUFeatures.x86_64(avx512: true, blas: BLASFeatures(kernelFamily: "Prescott", cutsInvariantly: true))
        XCTAssertEqual(fallback.blasWarning?.contains("set OPENBLAS_CORETYPE=SkylakeX"), true, fallback.blasWarning ?? "no warning")
        XCTAssertNil(CPUFeatures.arm64(blas: BLASFeatures(kernelFamily: "Prescott", cutsInvariantly: true)).blasWarning)
        // This machine's own BLAS is reported, not judged: a CPU model OpenBLAS does not know is the
        // environment's condition, which the warning above exists to tell a user about.
        print("BLASFamilyTests: this machine's OpenBLAS runs \(BLAS.kernelName): "
              + (CPUFeatures.current.blasWarning ?? "no warning (its kernels use the CPU's AVX2 or wider)"))
    }
}
