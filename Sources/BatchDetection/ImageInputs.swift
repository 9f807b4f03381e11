import DarknetImage
import Foundation

/// The images a batch runs on: files as given, the image files of directories, and the
/// lines of list files (Darknet's `get_paths`).
public enum ImageInputs {
    /// File extensions taken from directories (compared case-insensitively): those of the
    /// formats `PlanarImage` reads (`ImageFormat.pathExtensions`).
    public static let imageExtensions: Set<String> = ImageFormat.pathExtensions

    /// Expands `arguments`: a directory becomes its images sorted by path (its
    /// subdirectories too with `recursive`), anything else stays as given (a missing file
    /// fails later, as that image's error).
    /// - Throws: `BatchInputError.noImages` for a directory without images.
    public static func expand(_ arguments: [String], recursive: Bool) throws(BatchInputError) -> [String] {
        var paths: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                let found = try images(inDirectory: argument, recursive: recursive)
                guard !found.isEmpty else { throw .noImages(directory: argument, recursive: recursive) }
                paths += found
            } else {
                paths.append(argument)
            }
        }
        return paths
    }

    /// The image files of `directory` (and below it, with `recursive`), as
    /// `directory/relative/path`, sorted by path. Hidden entries are skipped.
    public static func images(inDirectory directory: String, recursive: Bool) throws(BatchInputError) -> [String] {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var result: [String] = []
        var pending = [base]
        var visited: Set<String> = []  // real paths: a symbolic link back up must not loop
        while let current = pending.popLast() {
            guard visited.insert(URL(fileURLWithPath: current).resolvingSymlinksInPath().path).inserted else { continue }
            let entries: [String]
            do { entries = try FileManager.default.contentsOfDirectory(atPath: current) } catch {
                throw .unreadableDirectory(directory: current)
            }
            for entry in entries where !entry.hasPrefix(".") {
                let path = current + "/" + entry
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if recursive { pending.append(path) }
                } else if isImageName(entry) {
                    result.append(path)
                }
            }
        }
        return result.sorted()
    }

    /// Whether a file name ends in one of `imageExtensions` (any case).
    public static func isImageName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The paths of a list (Darknet's `get_paths`): one per line, the line end (`\n`, or
    /// `\r\n`) removed, empty lines skipped; nothing else is trimmed, so names may hold spaces.
    /// Bytes that are not UTF-8 become U+FFFD (such a path then fails as that image's error).
    public static func paths(inList bytes: [UInt8]) -> [String] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap { line in
            let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
            return trimmed.isEmpty ? nil : String(decoding: trimmed, as: UTF8.self)
        }
    }

    /// Reads a list file, or standard input for `-`, and returns its paths.
    /// - Throws: `BatchInputError.unreadableList` if the file cannot be read,
    ///   `.emptyList` if it names no image.
    public static func readList(_ path: String) throws(BatchInputError) -> [String] {
        let bytes: [UInt8]
        if path == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableList(path: path) }
            bytes = [UInt8](data)
        }
        let paths = paths(inList: bytes)
        guard !paths.isEmpty else { throw .emptyList(path: path == "-" ? "<stdin>" : path) }
        return paths
    }
}
