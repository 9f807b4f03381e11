import Dispatch

/// One picture from a camera, a decoder or any other producer, on its way into a
/// `DetectionPipeline`.
public struct Frame: Sendable {
    /// The pixels (borrowed or owned, see `PixelBuffer`).
    public var pixels: PixelBuffer
    /// Presentation time in seconds: the stream's timestamp, or the camera clock's.
    public var timestamp: Double
    /// 0-based position in the source (a video's decode order). `nil`: the pipeline numbers
    /// frames in the order they arrive. Strides and results use it; dropped frames keep
    /// their numbers.
    public var index: Int?
    /// When the frame was captured, in nanoseconds of the monotonic clock
    /// (`DispatchTime.now().uptimeNanoseconds`). `nil`: when it reached the pipeline. Each
    /// result's latency is measured from it.
    public var captureTime: UInt64?

    public init(pixels: PixelBuffer, timestamp: Double, index: Int? = nil, captureTime: UInt64? = nil) {
        self.pixels = pixels
        self.timestamp = timestamp
        self.index = index
        self.captureTime = captureTime
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
    /// are dropped at once.
    public var stride: Int

    public init(mode: Mode, stride: Int = 1) {
        self.mode = mode
        self.stride = max(1, stride)
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
        let name = mode == .latest ? "latest" : "every"
        return stride == 1 ? name : "\(name), stride \(stride)"
    }
}

/// The monotonic clock a pipeline measures with; tests inject their own.
public protocol PipelineClock: Sendable {
    /// Nanoseconds since an arbitrary start, never decreasing.
    func now() -> UInt64
}

/// `DispatchTime`'s monotonic clock.
public struct MonotonicClock: PipelineClock {
    public init() {}
    public func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
