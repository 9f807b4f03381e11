import Foundation

/// A Darknet `.data` file, as `darknet detector test obj.data yolo-obj.cfg yolo-obj.weights`
/// takes it: `key = value` lines (`classes`, `names`, `train`, `valid`, `backup`, `eval`,
/// `top`, ...), `#` or `;` comments, blank lines.
///
/// `classes` and `names` matter for inference, `top` for a classifier's report; every other key
/// is kept as written in `values`.
///
/// **Relative paths.** Darknet opens them from the process's working directory (its own files
/// say `names = data/coco.names` and are meant to be run from Darknet's folder). A relative
/// `names` is looked for, in this order:
/// 1. in the working directory (Darknet's rule);
/// 2. beside the `.data` file;
/// 3. in the `.data` file's parent folder (Darknet's layout: `cfg/coco.data` next to
///    `data/coco.names`; a trained model's `data/obj.data` next to `data/obj.names`).
/// The first that exists is used; if none does, the error lists all three.
public struct DataFile: Sendable, Equatable {
    /// The file's path as given.
    public let path: String
    /// `classes=`, if present.
    public let classes: Int?
    /// `top=`, if present: how many classes `darknet classifier predict` and `demo` print (1
    /// without it, when no `-t` is given).
    public let top: Int?
    /// The names file (`names=`) resolved to one that exists; nil without a `names` key.
    public let names: URL?
    /// Every `key = value` as written (the first of a repeated key, as Darknet's lookup takes).
    public let values: [String: String]
    /// The line of each key in `values`.
    private let lines: [String: Int]

    /// Reads `url`, resolving relative paths against `workingDirectory` first (see above).
    /// - Throws: `FileError` (missing or unreadable), `DataFileError`.
    public init(contentsOf url: URL,
                workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws {
        try self.init(bytes: try readFile(url), url: url, workingDirectory: workingDirectory)
    }

    /// Reads `.data` bytes as if they were the file at `url` (which names it in errors and
    /// anchors its relative paths); only `names` is looked up on disk.
    /// - Throws: `DataFileError`.
    public init(bytes: [UInt8], url: URL, workingDirectory: URL) throws(DataFileError) {
        let path = url.path
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DataFileError(file: path, line: nil, key: nil, reason: .notText)
        }
        var values: [String: String] = [:]
        var lines: [String: Int] = [:]
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            var line = Substring(rawLine)
            if number == 1, line.first == "\u{FEFF}" { line = line.dropFirst() }
            let content = line.trimmingWhitespace()
            if content.isEmpty || content.first == "#" || content.first == ";" { continue }
            guard let equals = content.firstIndex(of: "=") else {
                throw DataFileError(file: path, line: number, key: nil, reason: .malformedLine(String(content)))
            }
            let key = String(content[..<equals].trimmingWhitespace())
            let value = String(content[content.index(after: equals)...].trimmingWhitespace())
            guard !key.isEmpty else {
                throw DataFileError(file: path, line: number, key: nil, reason: .malformedLine(String(content)))
            }
            if values[key] == nil {
                values[key] = value
                lines[key] = number
            }
        }
        func positive(_ key: String) throws(DataFileError) -> Int? {
            guard let text = values[key] else { return nil }
            guard let count = Int(text), count >= 1 else {
                throw DataFileError(file: path, line: lines[key], key: key, reason: .invalidValue(value: text, expected: "an integer >= 1"))
            }
            return count
        }
        self.path = path
        classes = try positive("classes")
        top = try positive("top")
        self.values = values
        self.lines = lines
        names = try Self.existingFile(values["names"], key: "names", line: lines["names"], dataFile: path,
                                      workingDirectory: workingDirectory)
    }

    /// The line `key` is on, if the file has it.
    package func line(of key: String) -> Int? { lines[key] }

    /// The existing file the path under `key` names (nil without the key), looked for as
    /// `names` is (see above).
    /// - Throws: `DataFileError` with `.fileNotFound` listing the places tried.
    public func file(forKey key: String,
                     workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws(DataFileError) -> URL? {
        try Self.existingFile(values[key], key: key, line: lines[key], dataFile: path, workingDirectory: workingDirectory)
    }

    private static func existingFile(_ value: String?, key: String, line: Int?, dataFile: String,
                                     workingDirectory: URL) throws(DataFileError) -> URL? {
        guard let value else { return nil }
        let candidates = candidates(for: value, dataFile: URL(fileURLWithPath: dataFile), workingDirectory: workingDirectory)
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw DataFileError(file: dataFile, line: line, key: key, reason: .fileNotFound(value: value, tried: candidates.map(\.path)))
        }
        return found
    }

    /// Where a path written in `dataFile` may be, in the order they are tried.
    public static func candidates(for value: String, dataFile: URL, workingDirectory: URL) -> [URL] {
        if value.hasPrefix("/") { return [URL(fileURLWithPath: value)] }
        let folder = dataFile.deletingLastPathComponent()
        var result: [URL] = []
        for base in [workingDirectory, folder, folder.deletingLastPathComponent()] {
            let candidate = base.appendingPathComponent(value).standardizedFileURL
            if !result.contains(candidate) { result.append(candidate) }
        }
        return result
    }

    /// The labels of `names` (empty without one).
    /// - Throws: `FileError` if the names file cannot be read.
    public func labels() throws -> [String] {
        try names.map { try ClassLabels.read($0) } ?? []
    }

    /// Fails unless `classes=` (when present) is what the network computes.
    /// - Parameters:
    ///   - networkClasses: the detection layers' classes, or a classifier's outputs.
    ///   - cfg: the cfg's path, named in the error.
    ///   - what: `classes` for a detector, `outputs` for a classifier.
    public func check(classes networkClasses: Int, cfg: String, what: String = "classes") throws(DataFileError) {
        if let classes, classes != networkClasses {
            throw DataFileError(file: path, line: nil, key: "classes",
                                reason: .classCountMismatch(classes: classes, cfg: cfg, networkClasses: networkClasses, what: what))
        }
    }
}
