import Foundation
import TestSupport
import XCTest

/// Every `swift-darknet COMMAND --flag` the Markdown files show (in shell blocks and inline code)
/// names a command and options that command's `--help` lists: the flags are contracts, and a
/// renamed or removed one must not live on in the documentation.
final class DocCommandLineTests: XCTestCase {
    func testDocumentedCommandLinesUseTheCommandsOptions() throws {
        var options: [String: Set<String>] = [:]
        var checked = 0
        for document in try DocSnippetTests.documents() {
            let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(document), encoding: .utf8)
            for (line, command, flags) in Self.commandLines(in: text) {
                if options[command] == nil { options[command] = try Self.options(of: command) }
                guard let known = options[command], !known.isEmpty else {
                    XCTFail("\(document):\(line): 'swift-darknet \(command)' is no command")
                    continue
                }
                for flag in flags where !known.contains(flag) {
                    XCTFail("\(document):\(line): swift-darknet \(command) has no option \(flag)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 40, "command lines found in the documentation")
        XCTAssertGreaterThanOrEqual(options.count, 9, "commands shown")
        print("DocCommandLineTests: \(checked) command lines of \(options.count) commands checked")
    }

    /// `swift-darknet COMMAND --help`'s options (`  --name ...` lines), empty when COMMAND is not one.
    static func options(of command: String) throws -> Set<String> {
        let help = try SwiftDarknetTool.run([command, "--help"])
        guard help.status == 0 else { return [] }
        return Set(help.stdout.components(separatedBy: "\n").compactMap { line in
            line.hasPrefix("  --") ? line.dropFirst(2).split(separator: " ").first.map(String.init) : nil
        } + ["--help"])
    }

    /// Each `swift-darknet COMMAND ...` of `text`'s shell blocks (continued lines joined) and
    /// inline code: its line number, the command and the `--flags` after it (up to a pipe, `;`,
    /// `&&` or a comment).
    static func commandLines(in text: String) -> [(line: Int, command: String, flags: [String])] {
        var found: [(Int, String, [String])] = []
        var inBlock = false, isSwift = false, pending = "", pendingLine = 0
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inBlock.toggle()
                isSwift = inBlock && trimmed == "```swift"
                continue
            }
            if inBlock && !isSwift {
                if pending.isEmpty { pendingLine = index + 1 }
                pending += " " + trimmed
                if pending.hasSuffix("\\") {
                    pending.removeLast()
                    continue
                }
                found += invocations(in: pending).map { (pendingLine, $0.command, $0.flags) }
                pending = ""
            } else if !inBlock {
                let spans = line.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
                for span in spans {
                    found += invocations(in: span).map { (index + 1, $0.command, $0.flags) }
                }
            }
        }
        return found
    }

    /// The invocations of `swift-darknet` in one command line.
    static func invocations(in line: String) -> [(command: String, flags: [String])] {
        let cut = line.components(separatedBy: " #").first ?? line
        var result: [(String, [String])] = []
        for segment in cut.components(separatedBy: CharacterSet(charactersIn: "|;&")) {
            let words = segment.split(separator: " ").map(String.init)
            guard let tool = words.firstIndex(where: { $0 == "swift-darknet" || $0.hasSuffix("/swift-darknet") }),
                  tool + 1 < words.count, !words[tool + 1].hasPrefix("-") else { continue }
            let flags = words[(tool + 2)...].flatMap { word in
                word.components(separatedBy: CharacterSet(charactersIn: "[]()"))
                    .filter { $0.hasPrefix("--") && $0.count > 2 }
                    .map { String($0.prefix { $0 != "=" && $0 != "," }) }
            }
            result.append((words[tool + 1], flags))
        }
        return result
    }
}
