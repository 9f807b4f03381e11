import Darknet
import Foundation

/// Where `darknet detector valid`'s detections go: `VOCResultsWriter` or `COCOResultsWriter`.
public protocol DetectionWriter {
    /// Writes one image's boxes after NMS, in Darknet's order, with their box in the image's
    /// pixels (`box.x` is the centre's column): a line per class with a probability above 0.
    mutating func write(_ boxes: [BoxCandidate], image path: String, width: Int, height: Int) throws
    /// Completes and closes the files.
    mutating func finish() throws
}

/// Darknet's image id for its result files (`basecfg`): the file name up to its first dot.
public func darknetImageID(_ path: String) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    return String(name.prefix { $0 != "." })
}

/// The box edges `valid` writes for a box in pixels: `x - w/2.` (+ `origin`) in double, stored
/// as float, then clamped to `origin...width` and `origin...height`, as Darknet's
/// `print_detector_detections` (origin 1) and `print_cocos` (origin 0) compute them.
struct ResultBox {
    var left: Float, top: Float, right: Float, bottom: Float

    init(_ box: RelativeBox, origin: Double, width: Int, height: Int) {
        left = Float(Double(box.x) - Double(box.width) / 2 + origin)
        right = Float(Double(box.x) + Double(box.width) / 2 + origin)
        top = Float(Double(box.y) - Double(box.height) / 2 + origin)
        bottom = Float(Double(box.y) + Double(box.height) / 2 + origin)
        if left < Float(origin) { left = Float(origin) }
        if top < Float(origin) { top = Float(origin) }
        if right > Float(width) { right = Float(width) }
        if bottom > Float(height) { bottom = Float(height) }
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
