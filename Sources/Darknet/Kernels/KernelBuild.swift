import CDarknetKernels

/// How this package's C kernels were compiled, which sets their speed more than anything else.
///
/// A debug build of a package that depends on this one compiles them at `-O0`, and a forward
/// pass then takes about 17 times as long (a live pipeline drops nearly every frame). An app can
/// log ``warning`` at start, as `swift-darknet` does on a terminal.
public enum KernelBuild {
    /// Whether the C kernels were compiled with optimization (`-O1` and above).
    public static let isOptimized = swiftdarknet_kernels_optimized() != 0

    /// One line saying that the kernels were compiled without optimization and what to do about
    /// it; nil when they were optimized.
    public static var warning: String? { warning(optimized: isOptimized) }

    static func warning(optimized: Bool) -> String? {
        optimized ? nil : "the C kernels were compiled without optimization (a debug build): forward passes take "
            + "about 17 times as long; build with -c release (swift build -c release, swift run -c release)"
    }
}
