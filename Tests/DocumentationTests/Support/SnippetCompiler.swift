import Foundation
import TestSupport
import XCTest

/// Typechecks Swift files against the modules of the test build, with the compiler and flags
/// SwiftPM used for this target (read from the build's `<configuration>.yaml`), and returns the
/// compiler's diagnostics: the build shows warnings but does not fail on them, and a snippet
/// pasted into an app meets contexts (top-level code, an `async` main) the copies do not.
struct SnippetCompiler {
    let swiftc: String
    let flags: [String]

    /// The compiler of `DocumentationTests` in the build that made this test bundle.
    init(file: StaticString = #filePath, line: UInt = #line) throws {
        // .build/<triple>/<configuration>/SwiftDarknetPackageTests.xctest; the description is
        // .build/<configuration>.yaml (the configuration folder may be reached through a link).
        let bundle = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
        let products = bundle.deletingLastPathComponent()
        let configuration = products.lastPathComponent
        let candidates = [products.deletingLastPathComponent().deletingLastPathComponent(), products.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("\(configuration).yaml") }
        guard let description = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            XCTFail("no build description beside the test bundle (looked for \(candidates.map(\.path))): build with "
                    + "`swift build --build-tests`", file: file, line: line)
            throw CompilerNotFound()
        }
        let text = try String(contentsOf: description, encoding: .utf8)
        guard let command = text.components(separatedBy: "\n").first(where: {
            $0.contains("args: [") && $0.contains(#""-module-name","DocumentationTests""#)
        }), let open = command.range(of: "args: ") else {
            XCTFail("\(description.path) has no compile command for DocumentationTests", file: file, line: line)
            throw CompilerNotFound()
        }
        let arguments = try JSONDecoder().decode([String].self, from: Data(command[open.upperBound...].utf8))
        swiftc = arguments[0]
        flags = Self.typecheckFlags(Array(arguments.dropFirst()))
    }

    struct CompilerNotFound: Error {}

    /// The module's compile flags without its outputs, sources and build-system options: search
    /// paths, module maps, defines, language mode and target.
    static func typecheckFlags(_ arguments: [String]) -> [String] {
        let alone: Set = ["-emit-dependencies", "-emit-module", "-parse-as-library", "-incremental", "-c", "-enable-batch-mode",
                          "-serialize-diagnostics", "-parseable-output", "-enable-testing", "-g", "-emit-objc-header"]
        let withValue: Set = ["-module-name", "-emit-module-path", "-output-file-map", "-index-store-path", "-package-name",
                              "-emit-objc-header-path"]
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-Xcc", index < arguments.count {
                kept += [argument, arguments[index]]
                index += 1
            } else if withValue.contains(argument) {
                index += 1
            } else if !alone.contains(argument), !argument.hasPrefix("@"), !argument.hasPrefix("-j") {
                kept.append(argument)
            }
        }
        return kept
    }

    /// The warnings and errors `swiftc -typecheck` reports in `checked` (one line each, with its
    /// file name and line), typechecking it with `others`; `library` parses every file as a
    /// library (no top-level code).
    func diagnostics(of checked: URL, with others: [URL], library: Bool) throws -> [String] {
        var arguments = ["-typecheck"] + flags + [checked.path] + others.map(\.path)
        if library { arguments.append("-parse-as-library") }
        let run = try ChildProcess.run(swiftc, arguments, timeout: 300)
        let lines = (run.stdout + run.stderr).split(separator: "\n").map(String.init)
        let found = lines.filter { $0.hasPrefix(checked.path + ":") && ($0.contains(": warning: ") || $0.contains(": error: ")) }
        if run.status != 0, found.isEmpty { return ["swiftc exited \(run.status): " + lines.prefix(20).joined(separator: "\n")] }
        return found.map { $0.replacingOccurrences(of: checked.deletingLastPathComponent().path + "/", with: "") }
    }
}
