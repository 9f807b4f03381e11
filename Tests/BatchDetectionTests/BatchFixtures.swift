import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// What the batch tests add to `TestPaths`: sample images copied into the tests' folders, a
/// truncated JPEG, and `swift-darknet detect` with YOLOv3-tiny.
enum BatchFixtures {
    /// Copies the sample image `name` (e.g. `dog.jpg`) to `destination`.
    static func copySample(_ name: String, to destination: URL) throws {
        try FileManager.default.copyItem(at: TestPaths.require(TestPaths.sample(name)), to: destination)
    }

    /// Writes the first 3000 bytes of a sample JPEG: a truncated file the decoder refuses.
    static func writeTruncatedJPEG(to destination: URL) throws {
        let bytes = try Data(contentsOf: TestPaths.require(TestPaths.sample("horses.jpg")))
        try bytes.prefix(3000).write(to: destination)
    }

    /// Runs `swift-darknet detect` with YOLOv3-tiny and COCO's names, then `arguments`, with
    /// `input` on standard input.
    static func detect(_ arguments: [String], input: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws
        -> ChildProcess.Result {
        try SwiftDarknetTool.run(["detect"] + (try TestPaths.tinyModelArguments()) + arguments, input: input, timeout: 300,
                                 file: file, line: line)
    }
}
