// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for SwiftDarknet. A package of its own so that `swift build` and
// `swift test` at the root never see executables that only link with `-sanitize=fuzzer`.
// Build and run them with `scripts/fuzz.sh [SECONDS]`; see Fuzz/README.md.
let package = Package(
    name: "SwiftDarknetFuzz",
    dependencies: [.package(name: "SwiftDarknet", path: "..")],
    targets: [
        // Each target's entry point on seed files without libFuzzer, in builds with -D FUZZ_REPLAY.
        .target(name: "FuzzReplay", path: "FuzzReplay"),
        .executableTarget(
            name: "FuzzCfg",
            dependencies: ["FuzzReplay", .product(name: "Darknet", package: "SwiftDarknet")],
            path: "FuzzCfg"
        ),
        .executableTarget(
            name: "FuzzWeights",
            dependencies: ["FuzzReplay", .product(name: "Darknet", package: "SwiftDarknet")],
            path: "FuzzWeights"
        ),
        .executableTarget(
            name: "FuzzData",
            dependencies: ["FuzzReplay", .product(name: "Darknet", package: "SwiftDarknet")],
            path: "FuzzData"
        ),
        .executableTarget(
            name: "FuzzImage",
            dependencies: [
                "FuzzReplay",
                .product(name: "Darknet", package: "SwiftDarknet"),
                .product(name: "DarknetImage", package: "SwiftDarknet"),
            ],
            path: "FuzzImage"
        ),
        .executableTarget(
            name: "FuzzServe",
            dependencies: ["FuzzReplay", .product(name: "DarknetServe", package: "SwiftDarknet")],
            path: "FuzzServe"
        ),
        .executableTarget(
            name: "FuzzVideo",
            dependencies: [
                "FuzzReplay",
                .product(name: "Darknet", package: "SwiftDarknet"),
                .product(name: "DarknetVideo", package: "SwiftDarknet"),
            ],
            path: "FuzzVideo"
        ),
    ]
)
