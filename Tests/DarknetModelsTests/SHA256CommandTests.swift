import DarknetModels
import Foundation
import TestSupport
import XCTest

/// The hand-written SHA-256 against `sha256sum` (a child process) on 3 MiB of random bytes.
final class SHA256CommandTests: XCTestCase {
    func testMatchesSha256sum() throws {
        let file = try temporaryDirectory("sha256").appendingPathComponent("random.bin")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(3 << 20) + 17).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: file)
        let result = try ChildProcess.run("/usr/bin/sha256sum", [file.path], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let output = result.stdout
        let expected = String(output.split(separator: " ").first ?? "")
        XCTAssertEqual(expected.count, 64, "sha256sum printed '\(output)'")
        XCTAssertEqual(ModelChecksum.hex(of: bytes), expected)
    }
}
