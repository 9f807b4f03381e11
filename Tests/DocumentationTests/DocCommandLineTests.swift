import Foundation
import TestSupport
import XCTest

/// Every `swift-darknet COMMAND --flag`, `darknet-bench --flag` and `darknet-microbench --flag` the
/// Markdown files show (in shell blocks and inline code) names a command and options its `--help`
/// mentions: the flags are contracts, and a renamed or removed one must not live on in the
/// documentation.
final class DocCommandLineTests: XCTestCase {
    func testDocumentedCommandLinesUseTheCommandsOptions() throws {
        var options: [String: Set<String>] = [:]
        var checked = 0
        for document in try MarkdownFiles.all() {
            let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(document), encoding: .utf8)
            for (line, command, flags) in Self.commandLines(in: text) {
                if options[command] == nil { options[command] = try Self.options(of: command) }
                guard let known = options[command], !known.isEmpty else {
                    XCTFail("\(document):\(line): '\(command)' is no command")
                    continue
                }
                for flag in flags where !known.contains(flag) {
                    XCTFail("\(document):\(line): \(command) has no option \(flag)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 80, "command lines found in the documentation")
        XCTAssertGreaterThanOrEqual(options.count, 12, "commands shown")
        print("DocCommandLineTests: \(checked) command lines of \(options.count) commands checked")
    }

    /// The tools whose command lines are checked, and whether a command follows the tool's name.
    static let tools = ["swift-darknet": true, "darknet-bench": false, "darknet-microbench": false]

    /// The first words of Darknet's two-word commands (`swift-darknet detector test`).
    static let darknetFirstWords: Set = ["detector", "classifier"]

    /// Every `--name` that `TOOL [COMMAND] --help` prints, empty when COMMAND is not one.
    static func options(of command: String) throws -> Set<String> {
        let words = command.split(separator: " ").map(String.init)
        let tool = SwiftDarknetTool.url.deletingLastPathComponent().appendingPathComponent(words[0])
        let help = try ChildProcess.run(try TestPaths.require(tool), Array(words.dropFirst()) + ["--help"])
        guard help.status == 0 else { return [] }
        return Set(try matches("--[a-z][a-z0-9-]*", in: help.stdout + help.stderr) + ["--help"])
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

    /// `.build/release/swift-darknet` -> `swift-darknet`.
    static func lastComponent(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The invocations of the tools in one command line: `tool command` (or the tool alone) and
    /// the flags after it.
    static func invocations(in line: String) -> [(command: String, flags: [String])] {
        let cut = line.components(separatedBy: " #").first ?? line
        var result: [(String, [String])] = []
        for segment in cut.components(separatedBy: CharacterSet(charactersIn: "|;&")) {
            let words = segment.split(separator: " ").map(String.init)
            guard let position = words.firstIndex(where: { !$0.hasSuffix("/") && tools[Self.lastComponent($0)] != nil })
            else { continue }
            let tool = lastComponent(words[position])
            var command = tool, first = position + 1
            if tools[tool] == true {
                guard first < words.count, !words[first].hasPrefix("-") else { continue }
                command += " " + words[first]
                first += 1
                if darknetFirstWords.contains(words[first - 1]), first < words.count {
                    command += " " + words[first]
                    first += 1
                }
            }
            let flags = words[first...].flatMap { word in
                word.components(separatedBy: CharacterSet(charactersIn: "[]()"))
                    .filter { $0.hasPrefix("--") && $0.count > 2 }
                    .map { String($0.prefix { $0 != "=" && $0 != "," }) }
            }
            result.append((command, flags))
        }
        return result
    }
}
