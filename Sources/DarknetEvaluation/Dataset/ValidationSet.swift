import Darknet
import Foundation

/// The images a `.data` file names for validation, as `darknet detector map`, `valid` and
/// `recall` read them: `valid=` is a text file with one image path a line (blank lines are
/// skipped), each image's labels are found by `LabelPaths`; `difficult=` (optional) lists, line
/// for line, an image whose label file holds that image's difficult objects (VOC's: neither
/// counted when missed nor when found); `eval=` (`voc`, the default, or `coco`) and `results=`
/// (default `results`) say what `valid` writes where.
///
/// Relative paths, in the `.data` file and in the lists, are looked for where `DataFile` looks
/// (the working directory, then beside the `.data` file, then its parent folder) and, for the
/// images, beside the list too. Every image must exist when the set is made; label files are
/// read as each image is scored.
public struct ValidationSet: Sendable {
    /// The `.data` file.
    public let data: DataFile
    /// The images in list order, resolved to existing files.
    public let images: [String]
    /// The images whose labels hold the difficult objects, line for line with `images`.
    public let difficultImages: [String]?
    /// `eval=`: `voc` or `coco`.
    public let eval: String
    /// `results=`: the folder `valid` writes into (resolved against the working directory).
    public let resultsFolder: String

    /// Reads `data` and the lists it names.
    /// - Throws: `FileError`, `DataFileError`, `EvaluationError`.
    public init(data url: URL, workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws {
        let data = try DataFile(contentsOf: url, workingDirectory: workingDirectory)
        guard let valid = data.values["valid"], !valid.isEmpty else {
            throw EvaluationError.missingKey(file: data.path, key: "valid")
        }
        self.data = data
        images = try Self.imageList(data, key: "valid", workingDirectory: workingDirectory) {
            FileManager.default.fileExists(atPath: $0)
        }.map(\.found)
        // Only the labels of these images are read: the images themselves need not exist.
        difficultImages = try data.values["difficult"].map { _ in
            try Self.imageList(data, key: "difficult", workingDirectory: workingDirectory) { image in
                LabelPaths.candidates(forImage: image).contains { FileManager.default.fileExists(atPath: $0) }
            }.map(\.found)
        }
        if let difficultImages, difficultImages.count != images.count {
            throw EvaluationError.difficultListMismatch(file: data.path, images: difficultImages.count, expected: images.count)
        }
        eval = (data.values["eval"] ?? "voc").lowercased()
        guard eval == "voc" || eval == "coco" else { throw EvaluationError.unsupportedEval(file: data.path, value: eval) }
        let results = data.values["results"] ?? "results"
        resultsFolder = results.hasPrefix("/") ? results : workingDirectory.appendingPathComponent(results).path
    }

    /// The images the list under `key` names, in order, each as written and resolved to the
    /// first place where `isPresent` holds.
    static func imageList(_ data: DataFile, key: String, workingDirectory: URL,
                          isPresent: (String) -> Bool) throws -> [(written: String, found: String)] {
        guard let list = try data.file(forKey: key, workingDirectory: workingDirectory) else { return [] }
        let bytes = try FileError.contents(of: list)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw FileError(path: list.path, reason: "not UTF-8 text") }
        let dataURL = URL(fileURLWithPath: data.path)
        var images: [(written: String, found: String)] = []
        var bases = [workingDirectory, list.deletingLastPathComponent(), dataURL.deletingLastPathComponent(),
                     dataURL.deletingLastPathComponent().deletingLastPathComponent()].map(\.standardizedFileURL)
        bases = bases.enumerated().filter { index, base in !bases[..<index].contains(base) }.map(\.1)
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .enumerated() {
            let path = line.trimmingCharacters(in: .whitespaces)
            if path.isEmpty { continue }
            let tried = path.hasPrefix("/") ? [path] : bases.map { $0.appendingPathComponent(path).path }
            guard let found = tried.first(where: isPresent) else {
                throw EvaluationError.imageNotFound(list: list.path, line: index + 1, path: path, tried: tried)
            }
            images.append((path, found))
        }
        guard !images.isEmpty else { throw EvaluationError.emptyList(file: list.path) }
        return images
    }

    /// The labels of image `index` (from the first existing file `LabelPaths` names).
    /// - Throws: `EvaluationError.labelsNotFound`, `FileError`, `LabelFileError`.
    public func labels(ofImage index: Int, classes: Int) throws -> LabelFile {
        try Self.labels(ofImage: images[index], classes: classes)
    }

    /// The difficult objects of image `index` (none without `difficult=`).
    public func difficultLabels(ofImage index: Int, classes: Int) throws -> LabelFile? {
        try difficultImages.map { try Self.labels(ofImage: $0[index], classes: classes) }
    }

    static func labels(ofImage image: String, classes: Int) throws -> LabelFile {
        let tried = LabelPaths.candidates(forImage: image)
        guard let path = tried.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw EvaluationError.labelsNotFound(image: image, tried: tried)
        }
        return try LabelFile(path: path, classes: classes)
    }
}
