// swift-tools-version:6.0
import PackageDescription

// An app of your own that uses SwiftDarknet, as the README describes: this repository two
// folders up, by path (yours: `.package(url: "<the repository's URL>", branch: "main")`).
// `name:` fixes the package's identity to "SwiftDarknet" whatever folder the clone is in.
let package = Package(
    name: "DetectApp",
    dependencies: [
        .package(name: "SwiftDarknet", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "DetectApp", dependencies: [
            .product(name: "Darknet", package: "SwiftDarknet"),
            .product(name: "DarknetImage", package: "SwiftDarknet"),
            .product(name: "DarknetVideo", package: "SwiftDarknet"),
            .product(name: "DarknetModels", package: "SwiftDarknet"),
        ]),
    ]
)
