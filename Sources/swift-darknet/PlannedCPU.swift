import CommandLineKit
import Darknet

/// `--cpu NAME` and `--blas FAMILY` of `info --plan`: the processor and BLAS a plan is made for,
/// the running machine's by default, so that any machine can show how a cfg plans on another
/// (the plan is a function of the cfg, the options and these features only).
struct PlannedCPU {
    static let options = OptionGroup("processor (with --plan)", [
        .value("cpu", "NAME", default: "running", """
            plan as this processor: running, \(named.keys.sorted().joined(separator: ", "))
            """),
        .value("blas", "FAMILY", """
            plan as this OpenBLAS kernel family (default: the running process's with --cpu running, \
            else OpenBLAS's family for that CPU)
            """),
    ])

    /// The processors `--cpu` names.
    static let named: [String: CPUFeatures] = [
        "x86-64-avx2": .x86_64(),
        "x86-64-avx2-vnni": .x86_64(avxVNNI: true),
        "x86-64-avx512": .x86_64(avx512: true),
        "x86-64-avx512-vnni": .x86_64(avx512VNNI: true),
        "x86-64-avx512-bf16": .x86_64(avx512VNNI: true, avx512BF16: true),
        "arm64": .arm64(),
        "arm64-dotprod": .arm64(dotProduct: true),
        "arm64-i8mm": .arm64(dotProduct: true, i8mm: true),
        "arm64-fp16": .arm64(dotProduct: true, fp16: true),
        "arm64-fp16-fhm": .arm64(dotProduct: true, fhm: true),
        "arm64-bf16": .arm64(dotProduct: true, i8mm: true, fhm: true, bf16: true),
    ]

    let cpu: CPUFeatures

    init(arguments: inout Arguments) throws {
        let name = arguments.stringOrDefault("cpu") ?? "running"
        var cpu: CPUFeatures
        if name == "running" {
            cpu = .current
        } else if let named = Self.named[name] {
            cpu = named
        } else {
            throw CLIError("--cpu must be running or one of \(Self.named.keys.sorted().joined(separator: ", ")), got '\(name)'")
        }
        if let family = arguments.string("blas") {
            guard !family.isEmpty else { throw CLIError("--blas needs an OpenBLAS kernel family, e.g. SkylakeX or Haswell") }
            // Whether it cuts invariantly: the library's table (BLASFeatures.invariantFamilies).
            cpu.blas = BLASFeatures(kernelFamily: family)
        }
        self.cpu = cpu
    }
}
