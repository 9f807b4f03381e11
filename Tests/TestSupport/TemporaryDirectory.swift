import Foundation
import XCTest

/// Fresh folders under the system's temporary directory, named `swiftdarknet-LABEL-UUID`
/// (the label tells whose folder a leftover is).
public enum TemporaryDirectory {
    /// A new empty folder; the caller removes it.
    public static func make(_ label: String = "test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdarknet-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Runs `body` with a new empty folder, removed when `body` returns or throws (for code that
/// is not a test method: static helpers, fixtures).
public func withTemporaryDirectory<T>(_ label: String = "test", _ body: (URL) throws -> T) throws -> T {
    let url = try TemporaryDirectory.make(label)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

extension XCTestCase {
    /// A new empty folder, removed when the test ends.
    public func temporaryDirectory(_ label: String = "test") throws -> URL {
        let url = try TemporaryDirectory.make(label)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}

/// Writes `text` (UTF-8) to `name` in `folder`, making the subfolders `name` has; returns its URL.
@discardableResult
public func writeText(_ text: String, to name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
}
