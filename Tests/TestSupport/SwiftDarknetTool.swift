import Foundation
import XCTest

/// The `swift-darknet` executable that `swift build --build-tests` builds beside the test bundle.
public enum SwiftDarknetTool {
    /// Its location (whether or not it is there).
    public static var url: URL {
        // On Linux the test bundle is an executable in the products folder, as is the tool.
        let bundle = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return bundle.deletingLastPathComponent().appendingPathComponent("swift-darknet")
    }

    /// Its location, failing the test when it is not built.
    public static func require(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try TestPaths.require(url, "build it with `swift build --build-tests` (./scripts/test.sh does)", file: file, line: line)
    }

    /// Runs `swift-darknet ARGUMENTS` to the end (see `ChildProcess.run`; the debug build's
    /// longest runs, video against every frame, take minutes).
    public static func run(_ arguments: [String], in workingDirectory: URL? = nil, input: Data? = nil, timeout: Double = 600,
                           file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        try ChildProcess.run(require(file: file, line: line), arguments, in: workingDirectory, input: input, timeout: timeout,
                             file: file, line: line)
    }

    /// Starts `swift-darknet ARGUMENTS`, for a test that signals it or reads it as it runs.
    public static func start(_ arguments: [String], in workingDirectory: URL? = nil,
                             file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess {
        try ChildProcess(require(file: file, line: line), arguments, in: workingDirectory)
    }
}
