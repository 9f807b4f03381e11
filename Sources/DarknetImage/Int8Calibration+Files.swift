import Darknet
import Foundation

extension Int8Calibration {
    /// Calibrates the float `network` on image files (any format `PlanarImage` reads), each letterboxed as
    /// `Detector` does (see `init(network:images:letterbox:threads:)`).
    /// - Throws: `ArgumentError` for `threads` below 1 (before any file is read),
    ///   `Int8CalibrationError.noImages` for an empty list, `ImageFileError` naming a file that
    ///   cannot be decoded, and the errors of calibrating.
    public init(network: Network, imageFiles: [URL], letterbox: Bool = true, threads: Int = 1) throws {
        try ArgumentError.require("threads", threads, atLeast: 1)
        guard !imageFiles.isEmpty else { throw Int8CalibrationError.noImages }
        let images = try imageFiles.map { url throws(ImageFileError) in try PlanarImage(contentsOf: url) }
        try self.init(network: network, images: images, letterbox: letterbox, threads: threads)
    }

    /// Calibrates on every image file directly in `folder` (an extension of
    /// `ImageFormat.pathExtensions`), in name order.
    /// - Throws: `Int8CalibrationError.unreadableImage` naming `folder` if it cannot be listed,
    ///   `.noImagesInFolder` if it holds no image, and the errors of `init(network:imageFiles:)`.
    public init(network: Network, imagesIn folder: URL, letterbox: Bool = true, threads: Int = 1) throws {
        try ArgumentError.require("threads", threads, atLeast: 1)
        try self.init(network: network, imageFiles: try Self.imageFiles(in: folder), letterbox: letterbox, threads: threads)
    }

    /// The image files directly in `folder` (by extension), sorted by name.
    public static func imageFiles(in folder: URL) throws -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw Int8CalibrationError.unreadableImage(file: folder.path, reason: "cannot list the folder")
        }
        let files = names.sorted()
            .filter { ImageFormat.pathExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .map { folder.appendingPathComponent($0) }
        guard !files.isEmpty else { throw Int8CalibrationError.noImagesInFolder(folder.path) }
        return files
    }
}
