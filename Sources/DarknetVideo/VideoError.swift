import Darknet

/// Why a video file, image sequence or stream could not be read or written. Every case names
/// the source (path or URL) it is about.
public enum VideoError: DarknetError, Equatable, Sendable {
    /// libavformat could not open or recognise `source` (missing, empty, unknown format,
    /// unreachable or refused URL; or recognised it only by a low-score guess that its
    /// extension contradicts); `reason` is FFmpeg's message, or says which guess was refused.
    case cannotOpen(source: String, reason: String)
    /// `source` opened but holds no video stream libavcodec can decode.
    case noVideoStream(source: String, reason: String)
    /// Waiting for `source` took longer than `seconds` (opening, or the next packet of a stream
    /// that stopped sending).
    case timedOut(source: String, seconds: Double)
    /// Reading `source` failed after `framesRead` frames (a truncated or damaged file).
    case readFailed(source: String, framesRead: Int, reason: String)
    /// `source` ended without a single decodable frame.
    case noFrames(source: String)
    /// A frame of `source` could not be converted for detection.
    case conversionFailed(source: String, reason: String)
    /// Reading was cancelled (`VideoReader.cancel()`).
    case cancelled(source: String)
    /// An output file could not be written.
    case writeFailed(destination: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(source, reason): "\(source): cannot open as video: \(reason)"
        case let .noVideoStream(source, reason): "\(source): no decodable video stream: \(reason)"
        case let .timedOut(source, seconds): "\(source): no data for \(Self.format(seconds)) s (timed out)"
        case let .readFailed(source, frames, reason): "\(source): read failed after \(frames) frames (truncated or damaged?): \(reason)"
        case let .noFrames(source): "\(source): no video frame could be decoded"
        case let .conversionFailed(source, reason): "\(source): cannot convert a frame: \(reason)"
        case let .cancelled(source): "\(source): reading cancelled"
        case let .writeFailed(destination, reason): "\(destination): cannot write video: \(reason)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
