import Darknet
import DarknetImage
import DarknetVideo
import Foundation

/// `video --out` and `classify-video --out`: the processed frames with their boxes or classes drawn, as a video file (see
/// `VideoWriter`) or, for a path with a `%d` pattern, as numbered PNG or JPEG images named by
/// the frame's index.
final class AnnotatedOutput {
    private let pattern: String?
    private let writer: VideoWriter?
    private let classCount: Int

    /// An output at `path` of `reader`'s size and frame rate; `classCount` sets the box colours.
    init(path: String, reader: VideoReader, classCount: Int = 80) throws {
        self.classCount = classCount
        if VideoSourceKind.hasFramePattern(path) {
            pattern = path
            writer = nil
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } else {
            pattern = nil
            writer = try VideoWriter(path: path, width: reader.width, height: reader.height, frameRate: reader.frameRate ?? 25)
            if let writer, writer.destination != path {
                warn("no H.264 encoder: writing MJPEG to \(writer.destination)")
            }
        }
    }

    /// `frame` with `annotations`' boxes drawn.
    func write(_ frame: VideoFrame, annotations: [BoxAnnotation]) throws {
        try write(PlanarImage(pixels: frame.pixels).annotated(with: annotations, classCount: classCount), of: frame)
    }

    /// `image`, drawn on `frame`, at the frame's time (a video) or index (images).
    func write(_ image: PlanarImage, of frame: VideoFrame) throws {
        if let pattern {
            try image.write(to: URL(fileURLWithPath: Self.fill(pattern, with: frame.index)))
        } else if let writer {
            guard image.width == writer.width, image.height == writer.height else {
                throw VideoError.writeFailed(destination: writer.destination,
                                             reason: "frame \(frame.index) is \(image.width)x\(image.height), the video \(writer.width)x\(writer.height)")
            }
            try writer.write(image, presentationTime: frame.presentationTime)
        }
    }

    func finish() throws {
        try writer?.finish()
    }

    /// `pattern` with its first `%d` / `%0Nd` replaced by `index`.
    static func fill(_ pattern: String, with index: Int) -> String {
        guard let percent = pattern.range(of: #"%0?[0-9]*d"#, options: .regularExpression) else { return pattern }
        let spec = pattern[percent].dropFirst().dropLast()
        let width = Int(spec) ?? 0
        let digits = String(index)
        let padded = digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
        return pattern.replacingCharacters(in: percent, with: padded)
    }
}
