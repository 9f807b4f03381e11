import CFFmpeg

/// What kind of source a path or URL names, which decides the default frame policy and
/// whether waits need network time-outs.
public enum VideoSourceKind: Sendable, Equatable, CustomStringConvertible {
    /// A file on disk (MP4, MKV, AVI, ...).
    case file
    /// Numbered images such as `frames/%04d.png`.
    case imageSequence
    /// A network URL (`rtsp://`, `http://`, `udp://`, `tcp://`, ...).
    case network
    /// A capture device read through libavdevice: a V4L2 camera (`/dev/video0`), or any input
    /// format libavdevice lists (`VideoReaderOptions.inputFormat`: `x11grab`, `lavfi`, ...).
    case device

    /// The kind of `source`: a V4L2 device path (`/dev/video0`) is a capture device, a URL with
    /// a scheme other than `file:` a network source, a path with a `%d`-style pattern an image
    /// sequence, anything else a file.
    public init(_ source: String) {
        if source.hasPrefix(Self.cameraPathPrefix) {
            self = .device
        } else if let range = source.range(of: "://"), !source[..<range.lowerBound].isEmpty,
           source[..<range.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
           source[..<range.lowerBound].lowercased() != "file" {
            self = .network
        } else if Self.hasFramePattern(source) {
            self = .imageSequence
        } else {
            self = .file
        }
    }

    /// `file`, `image sequence`, `network stream` or `capture device`.
    public var description: String {
        switch self {
        case .file: "file"
        case .imageSequence: "image sequence"
        case .network: "network stream"
        case .device: "capture device"
        }
    }

    /// The kind of `source` read with the input format named `inputFormat` (FFmpeg's `-f`):
    /// a capture device if libavdevice lists that format, else the kind of `source` alone.
    public init(_ source: String, inputFormat: String?) {
        self.init(source, input: inputFormat.flatMap(VideoReader.findInputFormat))
    }

    /// The kind of `source` read with `input`: a capture device if libavdevice lists it.
    init(_ source: String, input: UnsafePointer<AVInputFormat>?) {
        if let input, CaptureDeviceLibrary.isCaptureDevice(input) {
            self = .device
        } else {
            self.init(source)
        }
    }

    /// Whether frames arrive in real time, whether or not they are read: network streams and
    /// capture devices. Such a source defaults to processing the newest frame and dropping the
    /// others (`FramePolicy.Mode.latest`), and tolerates damaged packets.
    public var isLive: Bool { self == .network || self == .device }

    /// The path of camera `index` on Linux, where V4L2 names the first `/dev/video0`.
    public static func cameraPath(_ index: Int) -> String { "\(cameraPathPrefix)\(index)" }

    static let cameraPathPrefix = "/dev/video"

    /// Whether `path` contains a printf-style frame number (`%d`, `%04d`).
    public static func hasFramePattern(_ path: String) -> Bool {
        var characters = Substring(path)
        while let percent = characters.firstIndex(of: "%") {
            var rest = characters[characters.index(after: percent)...]
            rest = rest.drop { $0.isNumber }
            if rest.first == "d" { return true }
            characters = rest
        }
        return false
    }
}
