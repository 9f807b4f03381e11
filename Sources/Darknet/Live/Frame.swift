import Dispatch

/// One picture from a camera, a decoder or any other producer, on its way into a
/// `DetectionPipeline`.
public struct Frame: Sendable {
    /// The pixels (borrowed or owned, see `PixelBuffer`).
    public var pixels: PixelBuffer
    /// Presentation time: the stream's timestamp, or the camera clock's.
    public var presentationTime: Duration
    /// 0-based position in the source (a video's decode order). `nil`: the pipeline numbers
    /// frames in the order they arrive. Strides and results use it; dropped frames keep
    /// their numbers.
    public var index: Int?
    /// When the frame was captured (`ContinuousClock.now` in the capture callback). `nil`: when
    /// it reached the pipeline. Each result's `FrameStatistics.captureToResult` is measured
    /// from it.
    public var captureInstant: ContinuousClock.Instant?

    /// A frame presented at `presentationTime`, captured at `captureInstant`.
    public init(pixels: PixelBuffer, presentationTime: Duration, index: Int? = nil,
                captureInstant: ContinuousClock.Instant? = nil) {
        self.pixels = pixels
        self.presentationTime = presentationTime
        self.index = index
        self.captureInstant = captureInstant
    }

    /// A frame with its presentation time in seconds and its capture time in
    /// `DispatchTime.now().uptimeNanoseconds`.
    @available(*, deprecated, message: "use init(pixels:presentationTime:index:captureInstant:) with a Duration and a ContinuousClock instant")
    public init(pixels: PixelBuffer, timestamp: Double, index: Int? = nil, captureTime: UInt64? = nil) {
        self.init(pixels: pixels, presentationTime: .rounded(seconds: timestamp), index: index,
                  captureInstant: captureTime.map { ContinuousClock.Instant(uptimeNanoseconds: $0) })
    }

    /// `presentationTime` in seconds.
    @available(*, deprecated, message: "use presentationTime (a Duration)")
    public var timestamp: Double {
        get { presentationTime.inSeconds }
        set { presentationTime = .rounded(seconds: newValue) }
    }

    /// `captureInstant` in `DispatchTime.now().uptimeNanoseconds`.
    @available(*, deprecated, message: "use captureInstant (a ContinuousClock instant)")
    public var captureTime: UInt64? {
        get { captureInstant?.uptimeNanoseconds }
        set { captureInstant = newValue.map { ContinuousClock.Instant(uptimeNanoseconds: $0) } }
    }
}

extension Frame: CustomStringConvertible {
    /// Its index (where set), presentation time and pixels' format and size, as
    /// `Frame(index 3, 0.1 seconds, BGRA, 640 x 480)`.
    public var description: String {
        "Frame(\(index.map { "index \($0), " } ?? "")\(presentationTime), \(pixels.summary))"
    }
}

/// Which frames a `DetectionPipeline` runs the network on.
public struct FramePolicy: Sendable, Equatable, CustomStringConvertible {
    /// What happens to frames that arrive while the network is busy.
    public enum Mode: Sendable, Equatable {
        /// Live sources: only the newest frame waits; older waiting ones are dropped (and
        /// counted), so the lag never grows. The producer is never held back.
        case latest
        /// Files: every frame is processed, in order; the producer is held back while a few
        /// frames wait (`send` suspends), so memory stays bounded.
        case every
    }

    public var mode: Mode
    /// Only frames whose index is a multiple of `stride` are considered (1: all); the others
    /// are dropped at once. At least 1: a pipeline given a smaller stride takes no frame, and
    /// its `results` end with an `ArgumentError`.
    public var stride: Int

    public init(mode: Mode, stride: Int = 1) {
        self.mode = mode
        self.stride = stride
    }

    /// Newest frame only (live sources).
    public static let latest = FramePolicy(mode: .latest)
    /// Every frame, with back-pressure (files).
    public static let every = FramePolicy(mode: .every)
    /// Every `n`th frame, with back-pressure.
    public static func stride(_ n: Int) -> FramePolicy { FramePolicy(mode: .every, stride: n) }
    /// This policy on every `n`th frame only.
    public func strided(_ n: Int) -> FramePolicy { FramePolicy(mode: mode, stride: n) }

    public var description: String {
        stride == 1 ? mode.description : "\(mode), stride \(stride)"
    }
}

extension FramePolicy.Mode: CustomStringConvertible {
    /// `latest` or `every`.
    public var description: String { self == .latest ? "latest" : "every" }
}

/// The monotonic clock a pipeline measured with, in nanoseconds.
@available(*, deprecated, message: "pipelines measure with ContinuousClock; frames carry a ContinuousClock.Instant (Frame.captureInstant)")
public protocol PipelineClock: Sendable {
    /// Nanoseconds since an arbitrary start, never decreasing.
    func now() -> UInt64
}

/// `DispatchTime`'s monotonic clock.
@available(*, deprecated, message: "use ContinuousClock")
public struct MonotonicClock: PipelineClock {
    public init() {}
    public func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
