import Darknet
import Foundation

/// Where `darknet detector valid`'s detections go: `VOCResultsWriter` or `COCOResultsWriter`.
public protocol DetectionWriter {
    /// Writes one image's detections (Darknet's order, `DetectionOptions.validation`).
    mutating func write(_ detections: [Detection], image path: String, width: Int, height: Int) throws
    /// Completes and closes the files.
    mutating func finish() throws
}

/// Darknet's image id for its result files (`basecfg`): the file name up to its first dot.
public func darknetImageID(_ path: String) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    return String(name.prefix { $0 != "." })
}

/// The box edges `valid` writes, in pixels of a `width x height` image: Darknet's relative box
/// scaled in float (`get_network_boxes` with `relative=0`), then `x - w/2.` (+ `origin`) in
/// double, stored as float.
struct ResultBox {
    var left: Float, top: Float, right: Float, bottom: Float

    init(_ box: RelativeBox, width: Int, height: Int, origin: Double) {
        let x = box.x * Float(width), w = box.width * Float(width)
        let y = box.y * Float(height), h = box.height * Float(height)
        left = Float(Double(x) - Double(w) / 2 + origin)
        right = Float(Double(x) + Double(w) / 2 + origin)
        top = Float(Double(y) - Double(h) / 2 + origin)
        bottom = Float(Double(y) + Double(h) / 2 + origin)
    }
}

/// A file written in pieces, with the error naming it.
final class OutputFile {
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(path: String) throws(EvaluationError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.handle = handle
    }

    func write(_ text: String) throws(EvaluationError) {
        buffer += text.utf8
        if buffer.count >= 1 << 16 { try flush() }
    }

    func close() throws(EvaluationError) {
        try flush()
        do { try handle.close() } catch { throw .cannotWrite(path: path, reason: "\(error)") }
    }

    private func flush() throws(EvaluationError) {
        do { try handle.write(contentsOf: buffer) } catch { throw .cannotWrite(path: path, reason: "\(error)") }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Creates `folder` (and its parents) if it does not exist.
    static func makeFolder(_ folder: String) throws(EvaluationError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: folder, reason: "\(error)")
        }
    }
}
