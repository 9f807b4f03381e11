import Foundation
import TestSupport
import XCTest

/// Every Swift snippet of the Markdown files (`MarkdownFiles`) stands, line for line (blank lines
/// aside), between `// begin DOC N` and `// end DOC N` in a test file: in a test that runs it, or
/// in this target's `*Snippets.swift` files, which import nothing the document does not show (and
/// a DocC article's own module). So the test build compiles what a reader copies, and a snippet
/// that no longer compiles, or needs an import it does not show, fails the build.
final class DocSnippetTests: XCTestCase {
    /// Snippets that are not Swift a module compiles, and why.
    static let notCompiled: [SnippetID: String] = [
        SnippetID("README.md", 3): manifestFragment,
        SnippetID("Sources/Darknet/Darknet.docc/GettingStarted.md", 1): manifestFragment,
        SnippetID("Sources/Darknet/Darknet.docc/LiveFrames.md", 2): "SwiftUI, which Linux does not have",
    ]
    static let manifestFragment = "a Package.swift fragment (its products are checked against the manifest)"

    func testEverySnippetIsCompiledHereAsWritten() throws {
        let documents = try MarkdownFiles.all()
        XCTAssertGreaterThanOrEqual(documents.count, 20, "the README, the DocC articles, the module READMEs")
        let copies = try Self.compiledCopies()
        var seen = Set<SnippetID>()
        for document in documents {
            let snippets = try Snippet.all(in: document)
            for snippet in snippets {
                seen.insert(snippet.id)
                if Self.notCompiled[snippet.id] != nil { continue }
                guard let copy = copies[snippet.id] else {
                    XCTFail("\(snippet.id) is compiled nowhere: copy it into Tests/DocumentationTests:\n"
                            + snippet.code.joined(separator: "\n"))
                    continue
                }
                XCTAssertEqual(copy.lines.filter { !$0.isEmpty }, snippet.code.filter { !$0.isEmpty },
                               "\(snippet.id) differs from its copy in \(copy.file)")
                if let imports = copy.imports {
                    let shown = Set(snippets.flatMap(\.imports) + Self.catalogueModule(of: document))
                    XCTAssertEqual(Set(imports).subtracting(shown), [],
                                   "\(copy.file) imports what \(document) does not show")
                }
            }
        }
        XCTAssertEqual(Set(copies.keys).subtracting(seen), [], "copies of snippets no document has any more")
        XCTAssertEqual(Set(Self.notCompiled.keys).subtracting(seen), [],
                       "exemptions of snippets no document has any more")
        let run = copies.values.filter { $0.imports == nil }.count
        print("DocSnippetTests: \(seen.count) snippets: \(run) run by tests, \(copies.count - run) compiled only; "
              + "not compiled: "
              + Self.notCompiled.map { "\($0.key) (\($0.value))" }.sorted().joined(separator: "; "))
    }

    /// The README's snippets as a reader pastes them into an app, with every import the README
    /// shows and the values earlier snippets made (`SnippetContext`):
    /// - in an `async` function isolated to the main actor (an `@main` type's `static func main()
    ///   async throws`, as `Examples/DetectApp` has; the README says the snippets are written for
    ///   it): no warning and no error (a blocking call where an `async` overload exists needs
    ///   `await` there, and an `await` on a call without one is a warning);
    /// - as the whole of a `main.swift`: no error, and no warning but the one the README
    ///   explains (top-level code picks the blocking overloads, so there an `await` on
    ///   `detect`, `classify` or `update` has nothing to wait for).
    func testReadmeSnippetsCompileWithoutWarningsAsAppCode() throws {
        let compiler = try SnippetCompiler()
        let folder = try temporaryDirectory("readme-snippets")
        let context = TestPaths.packageRoot.appendingPathComponent("Tests/DocumentationTests/Support/SnippetContext.swift")
        let contextLines = try String(contentsOf: context, encoding: .utf8).components(separatedBy: "\n")
        let snippets = try Snippet.all(in: "README.md").filter { Self.notCompiled[$0.id] == nil }
        XCTAssertGreaterThanOrEqual(snippets.count, 7)
        let imports = Set(snippets.flatMap(\.imports)).sorted().map { "import \($0)" }
        var functions: [String] = []
        for snippet in snippets {
            let declared = snippet.code.filter { !$0.hasPrefix(" ") }.compactMap(Self.declaredName)
            // The values a snippet makes are the reader's to use later: used here, so that an
            // unused value is no warning.
            functions.append("@MainActor func readme\(snippet.id.number)() async throws {\n"
                             + (snippet.code + declared.map { "_ = \($0)" }).map { "    " + $0 }.joined(separator: "\n") + "\n}")
            // Top-level code: the context's globals a snippet declares itself are left out.
            let directory = folder.appendingPathComponent("snippet\(snippet.id.number)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let main = directory.appendingPathComponent("main.swift")
            try (imports + snippet.code).joined(separator: "\n").write(to: main, atomically: true, encoding: .utf8)
            let globals = directory.appendingPathComponent("SnippetContext.swift")
            try contextLines.filter { Self.declaredName($0).map { !declared.contains($0) } ?? true }.joined(separator: "\n")
                .write(to: globals, atomically: true, encoding: .utf8)
            let topLevel = try compiler.diagnostics(of: main, with: [globals], library: false)
            XCTAssertEqual(topLevel.filter { !$0.hasSuffix(": warning: no 'async' operations occur within 'await' expression") }, [],
                           "\(snippet.id) as top-level code")
        }
        let app = folder.appendingPathComponent("AsyncMain.swift")
        try (imports + functions).joined(separator: "\n").write(to: app, atomically: true, encoding: .utf8)
        XCTAssertEqual(try compiler.diagnostics(of: app, with: [context], library: true), [],
                       "the README's snippets in async functions on the main actor (AsyncMain.swift: readmeN is snippet N)")
    }

    /// The compile-only copies (`*Snippets.swift`) give no warning either: typechecked again,
    /// file by file, to read what the build only shows.
    func testCompiledCopiesGiveNoWarnings() throws {
        let compiler = try SnippetCompiler()
        let folder = TestPaths.packageRoot.appendingPathComponent("Tests/DocumentationTests")
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("Snippets.swift") }.sorted()
        XCTAssertGreaterThanOrEqual(copies.count, 10)
        let context = folder.appendingPathComponent("Support/SnippetContext.swift")
        for copy in copies {
            let others = copies.filter { $0 != copy }.map { folder.appendingPathComponent($0) }
            XCTAssertEqual(try compiler.diagnostics(of: folder.appendingPathComponent(copy), with: others + [context], library: true), [],
                           copy)
        }
    }

    /// `x` for a line `let x = ...`, `var x: T ...` (a top-level declaration of the context or a snippet).
    static func declaredName(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "=" || $0 == "(" })
        guard words.count >= 2, words[0] == "let" || words[0] == "var" else { return nil }
        return String(words[1])
    }

    /// The products a `Package.swift` fragment names are this package's library products.
    func testManifestFragmentsNameRealProducts() throws {
        let manifestURL = TestPaths.packageRoot.appendingPathComponent("Package.swift")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        let libraries = Set(try matches(#"\.library\(name: "(\w+)""#, in: manifest, group: 1))
        XCTAssertTrue(libraries.contains("Darknet"))
        var fragments = 0
        for document in try MarkdownFiles.all() {
            let snippets = try Snippet.all(in: document)
            for snippet in snippets where snippet.code.first == "// Package.swift of your package" {
                fragments += 1
                let products = try matches(#"\.product\(name: "(\w+)", package: "SwiftDarknet"\)"#,
                                           in: snippet.code.joined(separator: "\n"), group: 1)
                XCTAssertFalse(products.isEmpty, "\(snippet.id)")
                XCTAssertEqual(Set(products).subtracting(libraries), [],
                               "\(snippet.id) names products the manifest does not declare")
            }
        }
        XCTAssertEqual(fragments, 2)
        XCTAssertTrue(manifest.contains(#"name: "SwiftDarknet""#), "the package name the fragments use")
    }

    // MARK: Reading

    /// `Sources/M/M.docc/...` is in module M's catalogue; the README in none.
    static func catalogueModule(of document: String) -> [String] {
        let parts = document.split(separator: "/")
        return parts.count == 4 && parts[0] == "Sources" && parts[2] == "\(parts[1]).docc" ? [String(parts[1])] : []
    }

    /// The marked copies of snippets in every test file: `// begin DOC N[, DOC N...]` to `// end
    /// ...`, without the lines from a `// pause` to a `// resume` (a test feeding the snippet).
    static func compiledCopies() throws -> [SnippetID: CompiledCopy] {
        let tests = TestPaths.packageRoot.appendingPathComponent("Tests")
        var copies: [SnippetID: CompiledCopy] = [:]
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            let compiledOnly = file.hasPrefix("DocumentationTests/") && file.hasSuffix("Snippets.swift")
            var index = 0
            while index < lines.count {
                let line = lines[index]
                index += 1
                guard let start = line.range(of: "// begin "),
                      let ids = snippetIDs(String(line[start.upperBound...])) else { continue }
                let indent = line.distance(from: line.startIndex, to: start.lowerBound)
                let end = "// end " + line[start.upperBound...]
                let body = region(of: lines, from: &index, until: end, indent: indent)
                XCTAssertLessThanOrEqual(index, lines.count, "Tests/\(file): no '\(end)'")
                for id in ids {
                    XCTAssertNil(copies[id], "\(id) copied twice")
                    copies[id] = CompiledCopy(file: "Tests/\(file)", lines: body,
                                              imports: compiledOnly ? lines.compactMap(Snippet.importedModule) : nil)
                }
            }
        }
        return copies
    }

    /// The lines from `index` to the one ending in `end` (after it on return), `indent` spaces
    /// less indented, but those from a `// pause` to a `// resume`.
    private static func region(of lines: [String], from index: inout Int, until end: String, indent: Int) -> [String] {
        var body: [String] = [], paused = false
        while index < lines.count, !lines[index].hasSuffix(end) {
            let line = lines[index], trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// pause") { paused = true }
            if !paused { body.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count)))) }
            if trimmed == "// resume" { paused = false }
            index += 1
        }
        index += 1
        return body
    }

    /// `README.md 4, Sources/M/M.docc/A.md 1`: the snippets one marker names.
    static func snippetIDs(_ marker: String) -> [SnippetID]? {
        var ids: [SnippetID] = []
        for item in marker.components(separatedBy: ", ") {
            let parts = item.split(separator: " ")
            guard parts.count == 2, parts[0].hasSuffix(".md"), let number = Int(parts[1]) else { return nil }
            ids.append(SnippetID(String(parts[0]), number))
        }
        return ids
    }
}

/// A document's n-th Swift snippet (from 1).
struct SnippetID: Hashable, CustomStringConvertible {
    let document: String
    let number: Int
    init(_ document: String, _ number: Int) {
        self.document = document
        self.number = number
    }
    var description: String { "\(document) snippet \(number)" }
}

/// One ```swift block: its import lines' modules and the rest, without trailing blanks and blank
/// lines at either end.
struct Snippet {
    let id: SnippetID
    let imports: [String]
    let code: [String]

    static func all(in document: String) throws -> [Snippet] {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(document), encoding: .utf8)
        var snippets: [Snippet] = [], block: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if block == nil {
                if trimmed == "```swift" { block = [] }
            } else if trimmed == "```" {
                snippets.append(Snippet(id: SnippetID(document, snippets.count + 1), lines: block!))
                block = nil
            } else {
                block!.append(line)
            }
        }
        return snippets
    }

    private init(id: SnippetID, lines: [String]) {
        self.id = id
        imports = lines.compactMap(Self.importedModule)
        var code = lines.filter { Self.importedModule($0) == nil }
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while code.first == "" { code.removeFirst() }
        while code.last == "" { code.removeLast() }
        self.code = code
    }

    /// `M` for a line `import M` (a comment may follow).
    static func importedModule(_ line: String) -> String? {
        guard line.hasPrefix("import ") else { return nil }
        return line.dropFirst("import ".count).split(whereSeparator: { $0 == " " || $0 == "/" }).first.map(String.init)
    }
}

/// A snippet's copy in a test file; for a compile-only copy (`DocumentationTests/*Snippets.swift`),
/// that file's imports. Other copies are run by their tests, whose files import more.
struct CompiledCopy {
    let file: String
    let lines: [String]
    let imports: [String]?
}
