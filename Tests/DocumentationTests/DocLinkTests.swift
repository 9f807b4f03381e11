import Foundation
import TestSupport
import XCTest

/// Every relative link of the Markdown files (`[text](path)`, `[text](path#heading)`,
/// `[text](#heading)`) reaches a file of the package and, for a heading, a heading of that file:
/// folders and files move, and a README must not point where nothing is.
final class DocLinkTests: XCTestCase {
    func testRelativeLinksReachAFileAndHeading() throws {
        let root = TestPaths.packageRoot
        var checked = 0
        for document in try MarkdownFiles.all() {
            let url = root.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            for target in try Self.relativeLinks(in: text) {
                checked += 1
                let (path, heading) = Self.split(target)
                let file = path.isEmpty ? url
                    : url.deletingLastPathComponent().appendingPathComponent(path).standardized
                guard FileManager.default.fileExists(atPath: file.path) else {
                    XCTFail("\(document): the link '\(target)' reaches no file (\(file.path))")
                    continue
                }
                if let heading, file.pathExtension == "md" {
                    let anchors = Self.anchors(of: try String(contentsOf: file, encoding: .utf8))
                    XCTAssertTrue(anchors.contains(heading),
                                  "\(document): the link '\(target)' names no heading of \(file.lastPathComponent)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 30, "links found")
        print("DocLinkTests: \(checked) relative links checked")
    }

    /// The link targets outside code blocks that are not URLs (`scheme://`, `mailto:`) or DocC links.
    static func relativeLinks(in text: String) throws -> [String] {
        let prose = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        return try prose.flatMap { try matches(#"\]\(([^)\s]+)\)"#, in: $0, group: 1) }
            .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") && !$0.hasPrefix("doc:") }
    }

    /// `path#heading` -> (`path`, `heading`).
    static func split(_ target: String) -> (path: String, heading: String?) {
        guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
        return (String(target[..<hash]), String(target[target.index(after: hash)...]))
    }

    /// The anchors GitHub gives a Markdown file's headings: lower case, punctuation but `-` and
    /// `_` dropped, spaces as `-`.
    static func anchors(of text: String) -> Set<String> {
        Set(text.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("#") else { return nil }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || "-_ ".unicodeScalars.contains($0)
            }
            return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
        })
    }
}
