// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SwiftDarknet",
    products: [
        .library(name: "Darknet", targets: ["Darknet"]),
        .library(name: "DarknetImage", targets: ["DarknetImage"]),
        .library(name: "DarknetVideo", targets: ["DarknetVideo"]),
        .library(name: "DarknetModels", targets: ["DarknetModels"]),
        .library(name: "DarknetServe", targets: ["DarknetServe"]),
        .library(name: "DarknetEvaluation", targets: ["DarknetEvaluation"]),
        .executable(name: "swift-darknet", targets: ["swift-darknet"]),
        .executable(name: "darknet-bench", targets: ["darknet-bench"]),
        .executable(name: "darknet-microbench", targets: ["darknet-microbench"]),
    ],
    targets: [
        // MARK: System libraries (thin C shims)
        // OpenBLAS is opened at run time (see shim.h), so no pkg-config link flags.
        .systemLibrary(
            name: "COpenBLAS",
            path: "Sources/COpenBLAS",
            providers: [.apt(["libopenblas0"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            path: "Sources/CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CHEIF",
            path: "Sources/CHEIF",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CTIFF",
            path: "Sources/CTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            path: "Sources/CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        // FFmpeg's demuxers, capture devices, decoders, encoders and scaler, for DarknetVideo only.
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavdevice-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // HTTP and ZMQ for DarknetServe only.
        // No pkgConfig for these two: their headers and libraries are in the default paths, and
        // libzmq.pc adds Kerberos' -isystem flag, which SwiftPM refuses with a warning on every build.
        .systemLibrary(
            name: "CMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CZMQ",
            path: "Sources/CZMQ",
            providers: [.apt(["libzmq3-dev"])]
        ),

        // MARK: SIMD kernels in C, by architecture (vector widths Swift on Linux cannot target; see README.md there)
        .target(name: "CDarknetKernels", exclude: ["README.md"]),

        // MARK: Public API
        .target(
            name: "Darknet",
            dependencies: [
                "CDarknetKernels",
                .target(name: "COpenBLAS", condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi]))
            ],
            exclude: ["README.md", "Spec/README.md", "Arithmetic/README.md"]
        ),
        .target(
            name: "DarknetImage",
            dependencies: ["Darknet", "CJPEG", "CPNG", "CTIFF", "CWebP", "CHEIF"]
        ),
        // Video files and streams through FFmpeg; the core stays free of it.
        .target(
            name: "DarknetVideo",
            dependencies: ["Darknet", "CFFmpeg"],
            exclude: ["README.md"]
        ),
        // Models from URLs: download, checksum, cache, update checks (the only target that networks).
        .target(
            name: "DarknetModels",
            dependencies: ["Darknet"],
            exclude: ["README.md"]
        ),
        // The detection service (DeepStack / CodeProject.AI HTTP API, Frigate's ZMQ detector
        // protocol): libmicrohttpd and libzmq stay out of the core.
        .target(
            name: "DarknetServe",
            dependencies: ["Darknet", "DarknetImage", "CMicroHTTPD", "CZMQ"],
            exclude: ["README.md"]
        ),

        // Scoring a detector on labelled images: AlexeyAB's `detector map`, `valid` and `recall`.
        .target(
            name: "DarknetEvaluation",
            dependencies: ["Darknet", "DarknetImage"],
            exclude: ["README.md"]
        ),

        // MARK: Executables
        // Option parsing and help, and the flag groups both tools share (PrecisionFlags: int8 needs
        // Darknet's calibration and DarknetImage's image files).
        .target(name: "CommandLineKit", dependencies: ["Darknet", "DarknetImage"]),
        // Image batches for the command-line tools: inputs, the overlapped pipeline, output files.
        .target(
            name: "BatchDetection",
            dependencies: ["Darknet", "DarknetImage", "CommandLineKit"],
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "swift-darknet",
            dependencies: ["Darknet", "DarknetImage", "DarknetVideo", "DarknetModels", "DarknetServe", "DarknetEvaluation",
                           "CommandLineKit", "BatchDetection"],
            exclude: ["README.md"]
        ),
        .target(name: "BenchmarkKit", path: "Benchmarks/BenchmarkKit"),
        .executableTarget(
            name: "darknet-bench",
            dependencies: ["Darknet", "DarknetImage", "DarknetVideo", "CommandLineKit", "BenchmarkKit", "BatchDetection"],
            path: "Benchmarks/darknet-bench"
        ),
        .executableTarget(
            name: "darknet-microbench",
            dependencies: ["Darknet", "DarknetImage", "CommandLineKit", "BenchmarkKit"],
            path: "Benchmarks/darknet-microbench"
        ),
        // Resident memory over 200 detections in one process (scripts/memory-check.sh).
        .executableTarget(
            name: "memory-check",
            dependencies: ["Darknet", "DarknetImage"],
            path: "Benchmarks/memory-check"
        ),

        // MARK: Tests
        // What every test target shares: file locations, temporary folders, child processes
        // (swift-darknet, ffmpeg), tolerance comparisons, seeded random data, and what a unit
        // tier and its library's other tests both use (decoding-error checks, DeepStack forms).
        .target(name: "TestSupport", dependencies: ["Darknet", "DarknetImage"], path: "Tests/TestSupport"),
        // The library as an application linking only Darknet and DarknetImage runs it (no FFmpeg, so
        // OpenBLAS is opened by the library, not at start-up): BLASFamilyTests compares it with swift-darknet.
        .executableTarget(name: "darknet-library-probe", dependencies: ["Darknet", "DarknetImage"], path: "Tests/LibraryProbe"),
        // The core in three tiers (Tests/README.md): unit tests that need no file outside the clone
        // and no child process (scripts/test.sh --quick runs them), tests against the references in
        // Weights/ and Fixtures/generated/ (Darknet's layer dumps, AlexeyAB's, the zoo), and the
        // command-line tests, which run the executables they declare.
        .testTarget(name: "DarknetTests", dependencies: ["Darknet", "DarknetImage", "TestSupport"]),
        .testTarget(name: "DarknetReferenceTests", dependencies: ["Darknet", "DarknetImage", "TestSupport"]),
        .testTarget(name: "DarknetIntegrationTests", dependencies: ["Darknet", "DarknetImage", "TestSupport", "swift-darknet",
                                                            "darknet-library-probe"]),
        // Every other library's tests in two tiers too: `...UnitTests` needs nothing outside the
        // clone and starts no child process (scripts/test.sh --quick runs them with DarknetTests);
        // the library's own target holds the tests against files, tools and the executables.
        .testTarget(name: "DarknetImageUnitTests", dependencies: ["Darknet", "DarknetImage", "TestSupport"]),
        .testTarget(name: "DarknetServeUnitTests", dependencies: ["Darknet", "DarknetServe", "TestSupport"]),
        .testTarget(name: "DarknetEvaluationUnitTests", dependencies: ["Darknet", "DarknetImage", "DarknetEvaluation", "TestSupport"]),
        .testTarget(name: "DarknetModelsUnitTests", dependencies: ["DarknetModels"]),
        .testTarget(name: "DarknetVideoUnitTests", dependencies: ["Darknet", "DarknetVideo", "TestSupport"]),
        .testTarget(name: "BatchDetectionUnitTests", dependencies: ["Darknet", "DarknetImage", "BatchDetection", "TestSupport"]),
        .testTarget(name: "DarknetImageTests", dependencies: ["Darknet", "DarknetImage", "TestSupport"]),
        // Runs the built swift-darknet binary too (detect on batches), so it depends on it.
        .testTarget(name: "BatchDetectionTests", dependencies: ["Darknet", "DarknetImage", "BatchDetection", "swift-darknet",
                                                        "TestSupport"]),
        // ModelCLITests runs swift-darknet on hosted models (a python3 HTTP server), so it depends on it.
        .testTarget(name: "DarknetModelsTests", dependencies: ["Darknet", "DarknetModels", "swift-darknet", "TestSupport"]),
        // Also runs the swift-darknet executable (video against detect), so it depends on it.
        .testTarget(name: "DarknetVideoTests", dependencies: ["Darknet", "DarknetImage", "DarknetVideo", "swift-darknet", "TestSupport"]),
        // Starts servers on 127.0.0.1 in process and the swift-darknet executable (SIGTERM); real
        // clients (deepstack-python, pyzmq) run from a virtual environment setup.sh makes.
        .testTarget(
            name: "DarknetServeTests",
            dependencies: ["Darknet", "DarknetImage", "DarknetServe", "swift-darknet", "TestSupport"],
            exclude: ["Clients"]
        ),
        // Runs swift-darknet map/valid/recall and the Python references (Tools/evaluation).
        .testTarget(name: "DarknetEvaluationTests", dependencies: ["Darknet", "DarknetImage", "DarknetEvaluation", "swift-darknet",
                                                           "TestSupport"]),
        // The Markdown files against the code: their Swift snippets compiled as written, their tool
        // command lines against the tools' --help (so it runs them), their links.
        .testTarget(name: "DocumentationTests", dependencies: ["Darknet", "DarknetImage", "DarknetVideo", "DarknetModels",
                                                       "DarknetServe", "DarknetEvaluation", "swift-darknet",
                                                       "darknet-bench", "darknet-microbench", "TestSupport"]),
    ]
)
