@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// `CPUFeatures`: what it reads from the processor, and plans made for other processors.
final class CPUFeaturesTests: XCTestCase {
    /// The L2 size the planner sizes its Winograd bands against is the kernel's description of
    /// CPU 0's level-2 cache (sysfs), and the plan's CPU line says it.
    func testL2CacheSizeFollowsSysfs() throws {
        let l2 = try XCTUnwrap(CPUFeatures.current.l2CacheBytes, "Linux describes its caches: the L2 size must be read")
        let caches = "/sys/devices/system/cpu/cpu0/cache"
        let described = try FileManager.default.contentsOfDirectory(atPath: caches).compactMap { index -> Int? in
            func read(_ name: String) -> String? {
                (try? String(contentsOfFile: "\(caches)/\(index)/\(name)", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard read("level") == "2", read("type") != "Instruction", let size = read("size"),
                  size.hasSuffix("K"), let kib = Int(size.dropLast()) else { return nil }
            return kib << 10
        }
        XCTAssertTrue(described.contains(l2) || described.contains { $0 % l2 == 0 },
                      "L2 \(l2) bytes; sysfs describes \(described) (a shared cache counts per core)")
        XCTAssertTrue(CPUFeatures.current.description.hasSuffix(", L2 \(l2 >> 10) KiB"), CPUFeatures.current.description)
        XCTAssertFalse(CPUFeatures.x86_64(avx512: true).description.contains("L2"), "a CPU planned for says no L2 it was not given")
    }

    /// The extensions read from the processor are those the kernel reports in /proc/cpuinfo
    /// (x86-64: the `flags` line; arm64: `Features`), and the kernel sets picked are the widest
    /// those allow.
    func testExtensionsFollowProcCPUInfo() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let running = CPUFeatures.Extensions.running
        switch CPUFeatures.compiledArchitecture {
        case .x86_64:
            let line = try XCTUnwrap(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }, "no flags line")
            let flags = Set(line.split(separator: " ").map(String.init))
            let expected: [(CPUFeatures.Extensions, String)] = [
                (.avx2, "avx2"), (.fma, "fma"), (.avx512f, "avx512f"), (.avx512bw, "avx512bw"), (.avx512dq, "avx512dq"),
                (.avx512vl, "avx512vl"), (.avx512vnni, "avx512_vnni"), (.avxVNNI, "avx_vnni"),
            ]
            for (bit, flag) in expected { XCTAssertEqual(running.contains(bit), flags.contains(flag), flag) }
            let avx512 = ["avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx2"].allSatisfy(flags.contains)
            XCTAssertTrue(IntegerKernels.portable.runsHere)
            XCTAssertEqual(IntegerKernels.avx2.runsHere, flags.contains("avx2"))
            XCTAssertEqual(IntegerKernels.avxVNNI.runsHere, flags.contains("avx_vnni") && flags.contains("avx2"))
            XCTAssertEqual(IntegerKernels.avx512VNNI.runsHere, avx512)
            XCTAssertEqual(IntegerKernels.avxVNNIOnAVX512.runsHere, avx512)
            let expectedInteger: IntegerKernels = avx512 ? .avx512VNNI : (IntegerKernels.avxVNNI.runsHere ? .avxVNNI
                : (flags.contains("avx2") ? .avx2 : .portable))
            XCTAssertEqual(IntegerKernels.native, expectedInteger)
            let expectedVector: VectorKernels = flags.contains("avx512f") && flags.contains("fma") ? .avx512
                : (flags.contains("avx2") && flags.contains("fma") ? .avx2 : .portable)
            XCTAssertEqual(VectorKernels.native, expectedVector)
            if !IntegerKernels.avxVNNI.runsHere {
                print("CPUFeaturesTests: no AVX-VNNI on this CPU; its tile's source is tested EVEX-encoded (\(IntegerKernels.avxVNNIOnAVX512.runsHere ? "supported" : "not supported either"))")
            }
        case .arm64:
            let line = try XCTUnwrap(cpuinfo.split(separator: "\n").first { $0.hasPrefix("Features") }, "no Features line")
            let features = Set(line.split(separator: " ").map(String.init))
            let expected: [(CPUFeatures.Extensions, String)] = [
                (.neon, "asimd"), (.dotProduct, "asimddp"), (.i8mm, "i8mm"), (.sve, "sve"), (.fp16, "asimdhp"),
            ]
            for (bit, feature) in expected { XCTAssertEqual(running.contains(bit), features.contains(feature), feature) }
            XCTAssertEqual(VectorKernels.native, features.contains("asimd") ? .neon : .portable)
            XCTAssertTrue(IntegerKernels.neon.runsHere)
            XCTAssertEqual(IntegerKernels.dotProduct.runsHere, features.contains("asimddp"))
            XCTAssertEqual(IntegerKernels.i8mm.runsHere, features.contains("asimddp") && features.contains("i8mm"))
            XCTAssertEqual(IntegerKernels.native, IntegerKernels.i8mm.runsHere ? .i8mm : (IntegerKernels.dotProduct.runsHere ? .dotProduct : .neon))
        case .other:
            XCTAssertEqual(running, [])
        }
        print("CPUFeaturesTests: this machine is \(CPUFeatures.current)")
    }

    /// The same cfg planned as three CPUs: the float algorithms follow the vector width and the
    /// BLAS, and the plan records the CPU; planning reads nothing of the running machine.
    func testPlansAsOtherCPUsPickTheirAlgorithms() throws {
        let url = try TestPaths.require(TestPaths.darknetCfg.appendingPathComponent("yolov3.cfg"))
        let spec = try NetworkSpec.parse(contentsOf: url)
        let haswellBLAS = BLASFeatures(kernelFamily: "Haswell", cutsInvariantly: false)
        let cpus: [CPUFeatures] = [.x86_64(), .x86_64(avx512VNNI: true), .x86_64(avx512: true, blas: haswellBLAS),
                                   .arm64(dotProduct: true)]
        // An architecture's vector kernels are compiled into its own builds only: an x86-64 CPU
        // planned by an aarch64 build gets the portable ones, and an arm64 CPU planned by an
        // x86-64 build too.
        let x86Build = CPUFeatures.compiledArchitecture == .x86_64
        func expected(_ cpu: CPUFeatures) -> VectorKernels {
            switch cpu.architecture {
            case .x86_64 where x86Build: cpu.extensions.contains(.avx512f) ? .avx512 : .avx2
            case .arm64 where CPUFeatures.compiledArchitecture == .arm64: .neon
            default: .portable
            }
        }
        for cpu in cpus {
            let plan = try NetworkPlan(spec: spec, options: PlanOptions(cpu: cpu))
            XCTAssertEqual(plan.cpu, cpu)
            XCTAssertEqual(plan.vectorKernels, expected(cpu), "\(cpu)")
            XCTAssertEqual(try NetworkPlan(spec: spec, options: PlanOptions(cpu: cpu)), plan, "planning is a function of its inputs")
            let pointwise = plan.layers.filter { $0.algorithm == .pointwise }.count
            let oneByOne = plan.layers.filter { $0.algorithm == .direct }.count
            // YOLOv3's 1x1 layers take the product kernel only where AVX-512 meets a BLAS without it.
            XCTAssertEqual(pointwise > 0, cpu.vectorKernels == .avx512 && !cpu.blas.hasAVX512Kernels, "\(cpu)")
            XCTAssertEqual(pointwise + oneByOne, 37, "\(cpu): every 1x1 layer by one of the two")
            XCTAssertEqual(plan.layers[1].algorithm, .slidingWindowStride2, "\(cpu)")
            XCTAssertEqual(plan.layers[12].algorithm, .im2col, "\(cpu)")
        }
    }
}
