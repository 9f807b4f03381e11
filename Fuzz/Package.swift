// swift-tools-version:6.0
import PackageDescription

/// A fuzz target in the folder of its name: its entry point and the library products it reads
/// with (each target also links `FuzzReplay`).
func fuzzTarget(_ name: String, products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzReplay"] + products.map { .product(name: $0, package: "SwiftDarknet") },
        path: name
    )
}

// libFuzzer targets for SwiftDarknet. A package of its own so that `swift build` and
// `swift test` at the root never see executables that only link with `-sanitize=fuzzer`.
// Build and run them with `scripts/fuzz.sh [SECONDS]`; see Fuzz/README.md.
let package = Package(
    name: "SwiftDarknetFuzz",
    dependencies: [.package(name: "SwiftDarknet", path: "..")],
    targets: [
        // Each target's entry point on seed files without libFuzzer, in builds with -D FUZZ_REPLAY.
        .target(name: "FuzzReplay", path: "FuzzReplay"),
        fuzzTarget("FuzzCfg", products: ["Darknet"]),
        fuzzTarget("FuzzWeights", products: ["Darknet"]),
        fuzzTarget("FuzzData", products: ["Darknet"]),
        fuzzTarget("FuzzImage", products: ["Darknet", "DarknetImage"]),
        fuzzTarget("FuzzServe", products: ["DarknetServe"]),
        fuzzTarget("FuzzVideo", products: ["Darknet", "DarknetVideo"]),
    ]
)
