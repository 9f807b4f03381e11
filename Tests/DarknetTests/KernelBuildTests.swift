@testable import Darknet
import XCTest

final class KernelBuildTests: XCTestCase {
    /// The test command compiles the C kernels at -O2 (`scripts/test.sh`), the sanitizer builds
    /// at -O1 and the aarch64 build in release: every one of them optimized.
    func testTheTestBuildsKernelsAreOptimized() {
        XCTAssertTrue(KernelBuild.isOptimized,
                      "the C kernels were compiled at -O0: run ./scripts/test.sh, which builds them at -O2 "
                      + "(a plain swift test takes about 2.5 times as long)")
        XCTAssertNil(KernelBuild.warning)
    }

    /// What `swift-darknet` prints on stderr from a debug build.
    func testTheWarningOfAnUnoptimizedBuildSaysWhatToDo() throws {
        XCTAssertNil(KernelBuild.warning(optimized: true))
        let warning = try XCTUnwrap(KernelBuild.warning(optimized: false))
        XCTAssertTrue(warning.contains("17 times as long") && warning.contains("-c release"), warning)
        XCTAssertFalse(warning.contains("\n"), "one line")
    }
}
