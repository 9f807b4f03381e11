import Foundation
import TestSupport

/// The documentation these tests hold against the code.
enum MarkdownFiles {
    /// The README and every Markdown file of the sources (DocC articles, module READMEs), the
    /// tests, the benchmarks and the fuzz targets, as paths relative to the package.
    static func all() throws -> [String] {
        var documents: [String] = []
        for folder in ["Sources", "Tests", "Benchmarks", "Fuzz"] {
            let url = TestPaths.packageRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
            documents += files.filter { $0.hasSuffix(".md") }.map { "\(folder)/\($0)" }
        }
        return ["README.md"] + documents.sorted()
    }
}
