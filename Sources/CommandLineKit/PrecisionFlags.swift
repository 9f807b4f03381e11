import Darknet
import DarknetImage
import Foundation

/// `--precision float32|bf16|fp16|int8|auto`, `--calibrate DIR`, `--calibration FILE`, `--save-calibration FILE`,
/// `--float-layers default|float-early|input-and-heads|none`, `--kernels NAME`: the arithmetic a command-line
/// tool runs its network in (`swift-darknet detect` and `video`, `darknet-bench`), the same flags everywhere.
/// bf16 rounds operands to bfloat16 and sums in float32 where the CPU multiplies bfloat16 (else
/// float32, said on standard error), fp16 likewise in IEEE half precision; auto is bf16 where the
/// CPU multiplies bfloat16, else fp16 where it multiplies float16, else float32.
/// int8 needs calibration images (`--calibrate`) or a saved calibration (`--calibration`);
/// `--save-calibration` writes what `--calibrate` measured so the next run can load it, and
/// `--float-layers` picks the convolutions that stay float (`Int8FloatLayers`). `--kernels` runs
/// the bf16 or fp16 convolutions on a named kernel set, e.g. a portable emulation of another CPU's
/// instruction, so that any machine computes that CPU's results exactly.
public struct PrecisionFlags: Sendable {
    /// These options, for a command's declarations and help.
    public static let options = OptionGroup("precision", [
        .value("precision", "float32|bf16|fp16|int8|auto", default: "float32", """
            float32: Darknet's results; bf16: bfloat16 products, float32 sums, no calibration (CPUs \
            with AVX512_BF16, arm64 BF16); fp16: the same in IEEE half precision (arm64 with FEAT_FP16; without FEAT_FHM, in \
            half sums of 8 products); int8: \
            needs --calibrate or --calibration; auto: bf16 where the CPU has it, else fp16 where it \
            has that, else float32
            """),
        .value("calibrate", "DIR", "calibrate int8 on the image files in DIR (keep your test images out of it)"),
        .value("calibration", "FILE", "an int8 calibration written by --save-calibration (checked against the cfg and weights)"),
        .value("save-calibration", "FILE", "write the calibration --calibrate measured (JSON sidecar)"),
        .value("float-layers", "NAME", default: "default", """
            int8's convolutions kept from 8 bits: default (those reading fewer than 64
            channels, except the first, and those feeding a detection head, in 16-bit integers
            where that kernel takes them, else in float; on a CPU without an int8 dot-product
            instruction, all with K = channels x size² under 2304, in float), float-early (the
            same, all in float), input-and-heads, or none (all in int8)
            """),
        .value("kernels", "NAME", """
            the kernel set of the bf16 or fp16 convolutions (default: this CPU's): one this CPU \
            runs, or an emulation giving another CPU's results bit for bit, slowly: portable-bf16 \
            (x86-64's VDPBF16PS), portable-arm-bf16 (arm64's BFDOT and BFMMLA), portable-fp16 \
            (arm64's FMLAL), portable-fmla-fp16 (arm64's FMLA in half sums, CPUs without FEAT_FHM)
            """),
    ])

    /// The lines of these options in a hand-written help (`darknet-bench`).
    public static var help: String { options.text }

    /// int8 (with calibration).
    public let int8: Bool
    /// The 16-bit float precision these flags ask for: `.bfloat16` for `--precision bf16` (or
    /// `auto` on a CPU with bfloat16 kernels), `.float16` for `fp16` (or `auto` on a CPU with
    /// float16 kernels and no bfloat16 ones); nil for the others.
    public let reduced: Precision?
    /// `--precision bf16`, or `auto` on a CPU with bfloat16 kernels.
    public var bfloat16: Bool { reduced == .bfloat16 }
    /// `--precision fp16`, or `auto` on a CPU with float16 kernels and no bfloat16 ones.
    public var float16: Bool { reduced == .float16 }
    /// The precision's name in `--precision`'s terms: `float32`, `bf16`, `fp16` or `int8`.
    public var name: String { int8 ? "int8" : bfloat16 ? "bf16" : float16 ? "fp16" : "float32" }
    /// `--precision auto`: the line saying what it chose, for standard error.
    public let autoChoice: String?
    public let calibrate: URL?
    public let calibration: URL?
    public let saveCalibration: URL?
    /// `--float-layers` (`Int8FloatLayers`).
    public let floatLayers: Int8FloatLayers
    /// `--kernels`: the set every bf16 or fp16 convolution runs, or nil for the CPU's.
    package let reducedKernels: ReducedKernels?

    /// What `--precision auto` says it chose on `cpu`.
    static func autoLine(_ fastest: Precision, on cpu: CPUFeatures) -> String {
        switch fastest {
        case .bfloat16: "precision auto: bf16 (this CPU multiplies bfloat16: \(cpu.reducedKernelsName(for: .bfloat16)))"
        case .float16: "precision auto: fp16 (this CPU multiplies float16, but not bfloat16: \(cpu.reducedKernelsName(for: .float16)))"
        default:
            "precision auto: float32 (this CPU has no bfloat16 kernels: AVX512_BF16 on x86-64, BF16 on arm64; "
                + "nor float16 kernels: arm64 with FEAT_FP16)"
        }
    }

    /// Reads the flags; an inconsistent combination is a usage mistake (`CLIError`).
    public init(arguments: inout Arguments) throws(CLIError) {
        let precision = arguments.stringOrDefault("precision") ?? "float32"
        var choice: String?
        switch precision {
        case "float32", "int8":
            reduced = nil
        case "bf16", "bfloat16":
            reduced = .bfloat16
        case "fp16", "float16":
            reduced = .float16
        case "auto":
            let cpu = CPUFeatures.current
            let fastest = Precision.fastestUncalibrated(on: cpu)
            reduced = fastest.reducedArithmetic == nil ? nil : fastest
            choice = Self.autoLine(fastest, on: cpu)
        default:
            throw CLIError("--precision must be float32, bf16, fp16, int8 or auto, got '\(precision)'")
        }
        autoChoice = choice
        int8 = precision == "int8"
        calibrate = arguments.string("calibrate").map { URL(fileURLWithPath: $0) }
        calibration = arguments.string("calibration").map { URL(fileURLWithPath: $0) }
        saveCalibration = arguments.string("save-calibration").map { URL(fileURLWithPath: $0) }
        if calibrate != nil, calibration != nil { throw CLIError("give --calibrate DIR or --calibration FILE, not both") }
        if saveCalibration != nil, calibrate == nil { throw CLIError("--save-calibration needs --calibrate DIR") }
        if int8, calibrate == nil, calibration == nil {
            throw CLIError("--precision int8 needs calibration: --calibrate DIR (images) or --calibration FILE (saved)")
        }
        if !int8, calibrate != nil || calibration != nil {
            throw CLIError("--calibrate and --calibration are for --precision int8")
        }
        let floatLayersName = arguments.string("float-layers")
        switch floatLayersName ?? "default" {
        case "default": floatLayers = .default
        case "float-early": floatLayers = .floatEarly
        case "input-and-heads": floatLayers = .inputAndHeads
        case "none": floatLayers = .none
        case let other: throw CLIError("--float-layers must be default, float-early, input-and-heads or none, got '\(other)'")
        }
        if !int8, floatLayersName != nil { throw CLIError("--float-layers is for --precision int8") }
        reducedKernels = try Self.kernels(named: arguments.string("kernels"), for: precision, reduced: reduced)
    }

    /// The set `--kernels` names, checked against the precision asked for (`precision` as given:
    /// with `auto` the arithmetic depends on the CPU, so no set fits it).
    static func kernels(named name: String?, for precision: String, reduced: Precision?) throws(CLIError) -> ReducedKernels? {
        guard let name else { return nil }
        guard precision != "auto", let arithmetic = reduced?.reducedArithmetic else {
            throw CLIError("--kernels is for --precision bf16 or fp16, got --precision \(precision)")
        }
        let sets = ReducedKernels.allCases.filter { $0.table != nil && $0.arithmetic == arithmetic }
        guard let set = sets.first(where: { $0.description == name }) else {
            let flag = arithmetic == .bfloat16 ? "bf16" : "fp16"
            throw CLIError("--kernels for --precision \(flag) must be one of \(sets.map(\.description).joined(separator: ", ")), got '\(name)'")
        }
        return set
    }

    /// `options` with this precision for `spec`: float as they are; int8 with the calibration
    /// read from `--calibration`, or measured by running `float` (the float network, already
    /// loaded) over the `--calibrate` images, each letterboxed (or stretched, with `letterbox`
    /// false, as `--stretch` detects) to the network input, then saved to `--save-calibration`.
    /// `log` gets one line about the calibration.
    /// - Throws: `Int8CalibrationError`, `ImageFileError`, `FileError` naming their files.
    public func options(_ options: PlanOptions, spec: NetworkSpec, float: () throws -> Network, letterbox: Bool = true,
                        threads: Int, log: (String) -> Void) throws -> PlanOptions {
        if let autoChoice { log(autoChoice) }
        guard int8 else {
            var result = options
            if let reduced { result.precision = reduced }
            if let reducedKernels {
                guard reducedKernels.runs(on: options.cpu.architecture, options.cpu.extensions) else {
                    let runs = ReducedKernels.allCases.filter {
                        $0.arithmetic == reducedKernels.arithmetic && $0.runs(on: options.cpu.architecture, options.cpu.extensions)
                    }.map(\.description)
                    throw CLIError("--kernels \(reducedKernels): this CPU does not run it; it runs \(runs.joined(separator: ", "))")
                }
                result.reducedKernels = reducedKernels
            }
            return result
        }
        let made: Int8Calibration
        if let calibration {
            made = try Int8Calibration(contentsOf: calibration, for: spec)
            log("int8 calibration from \(calibration.path) (\(made.imageCount) images)")
        } else if let calibrate {
            made = try Int8Calibration(network: try float(), imagesIn: calibrate, letterbox: letterbox, threads: threads)
            log("int8 calibration on \(made.imageCount) images of \(calibrate.path)")
            if let saveCalibration {
                try made.write(to: saveCalibration)
                log("int8 calibration saved to \(saveCalibration.path)")
            }
        } else {
            preconditionFailure("init(arguments:) requires a calibration source for int8")
        }
        var result = options
        result.precision = .int8(made, floatLayers: floatLayers)
        return result
    }

    /// For an int8 `plan`, what it runs in integers, what it keeps from 8 bits in bfloat16 (on a
    /// CPU with bfloat16 products) and, on a CPU without VNNI (arm64: without SDOT), the rule
    /// that keeps the short convolutions float: "int8: 8 of 13 convolutions in integers (0 of
    /// them in 16 bits); 4 kept from 8 bits in bfloat16 (kernels: avx512-bf16)", "int8: 4 of 13
    /// convolutions in integers (0 of them in 16 bits); ..."; for bf16 or fp16, how many
    /// convolutions run in it, the first that does not and why, and the kernel set: "bf16: 11 of
    /// 13 convolutions in bfloat16; layer 0 in float32: ...; kernels: avx512-bf16"; nil for float.
    public func summary(of plan: NetworkPlan) -> String? {
        if let arithmetic = reduced?.reducedArithmetic {
            let convolutions = plan.layers.filter { $0.algorithm != nil }
            let count = convolutions.filter { $0.arithmetic == arithmetic }.count
            var summary = "\(name): \(count) of \(convolutions.count) convolutions in \(arithmetic)"
            if let other = convolutions.first(where: { $0.arithmetic != arithmetic }), let reason = other.arithmeticReason {
                summary += "; layer \(other.index) in \(other.arithmetic): \(reason)"
            }
            if let kernels = convolutions.lazy.compactMap(\.reducedKernels).first {
                summary += "; kernels: \(kernels)"
            }
            return summary
        }
        guard int8 else { return nil }
        let convolutions = plan.layers.filter { if case .convolutional = $0.spec.kind { true } else { false } }.count
        let (all, sixteenBit) = plan.integerConvolutions
        var summary = "int8: \(all) of \(convolutions) convolutions in integers (\(sixteenBit) of them in 16 bits)"
        let bfloat16 = plan.layers.filter { $0.arithmetic == .bfloat16 }
        if let kernels = bfloat16.lazy.compactMap(\.reducedKernels).first {
            summary += "; \(bfloat16.count) kept from 8 bits in bfloat16 (kernels: \(kernels))"
        }
        if plan.cpu.int8WithoutDotProduct, floatLayers.minimumDepthWithoutVNNI > 0 {
            let missing = plan.cpu.architecture == .arm64 ? "no dot product (SDOT)" : "no VNNI"
            summary += "; this CPU has \(missing), so those with K = channels x size² under \(floatLayers.minimumDepthWithoutVNNI) stay float"
        }
        return summary
    }
}
