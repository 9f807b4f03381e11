import CFFmpeg
import Darknet
import Dispatch

/// Reads the frames of anything libavformat opens — MP4/MKV/AVI files (H.264, HEVC, MPEG-4,
/// MJPEG...), image sequences (`frames/%04d.png`), network URLs (`rtsp://`, `http://`,
/// `udp://`, `tcp://`) and capture devices (a V4L2 camera, `/dev/video0`; any libavdevice input
/// through `VideoReaderOptions.inputFormat`) — decoding its best video stream with libavcodec,
/// in software.
///
/// `nextFrame()` returns frames in decode order with the stream's timestamps and flushes the
/// decoder at the end, so the last frames are not lost; `frames` gives them as an
/// `AsyncSequence`, decoded off Swift's cooperative pool. Every wait is bounded by
/// `VideoReaderOptions.timeout`. Call `nextFrame()` from one thread at a time; `cancel()` may
/// be called from any thread and makes a waiting read fail with `VideoError.cancelled`.
/// To run a `DetectionPipeline` on a video, hand the reader to `DetectionPipeline.process(_:options:)`
/// or to a `VideoFeed`.
public final class VideoReader: @unchecked Sendable {
    /// The path or URL, as given.
    public let source: String
    /// File, image sequence, network stream or capture device.
    public let kind: VideoSourceKind
    /// Frame size the stream declares, turned upright when the reader turns its frames
    /// (`rotation`; each frame's own size is in its pixel buffer).
    public let width: Int
    public let height: Int
    /// The clockwise turn (0, 90, 180 or 270 degrees) the stream's display matrix asks for to
    /// show its frames upright (a phone's portrait video is stored landscape and says 90), as
    /// the `ffmpeg` command reads it. With `VideoReaderOptions.autorotate` (the default)
    /// `nextFrame()` returns the frames turned, as `ffmpeg` and OpenCV do.
    public let rotation: Int
    /// Frames per second the stream declares or libavformat guesses; nil if unknown.
    public let frameRate: Double?
    /// Frames the container declares, or its duration times the frame rate; nil for streams.
    public let estimatedFrameCount: Int?
    /// The decoder's name (`h264`, `mjpeg`, `png`, ...).
    public let codecName: String
    /// FFmpeg's name of the pixel format the decoder gives (`yuv420p`, `yuyv422` from a camera,
    /// `rgb24`...); frames in another format than I420, NV12 or RGB are converted to RGB.
    public let pixelFormatName: String
    /// Frames returned so far.
    public private(set) var framesRead = 0
    /// Packets cut short or rejected by the decoder (decoding goes on with the next one; a file
    /// with any ends in `VideoError.readFailed`, a network stream or device tolerates them).
    public private(set) var damagedPackets = 0

    private let timeout: Double
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let streamIndex: Int32
    private let timeBase: AVRational
    private let interrupt: UnsafeMutablePointer<sd_interrupt_state>
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let converter = FrameConverter()
    /// The turn applied to each frame (`rotation` when autorotating, else 0).
    private let turn: Int
    private var draining = false
    private var waitingForDevice = false
    private var finished = false
    private var pendingError: VideoError?
    private var lastPresentationTime: Duration?
    private var reportedDamage = false
    private let memory: MemoryInput?
    /// Where `frames` decodes: one thread, started on demand, ending when idle.
    let decodeThread = LibraryThreads(maximum: 1, idleTimeout: 1, name: "SwiftDarknet.VideoReader")

    /// Opens `source` and its decoder (waiting at most `options.timeout` seconds).
    /// - Throws: `VideoError.cannotOpen` (also for invalid `options`), `.timedOut` or
    ///   `.noVideoStream`, naming `source`.
    public convenience init(source: String, options: VideoReaderOptions = VideoReaderOptions()) throws(VideoError) {
        try self.init(source: source, memory: nil, options: options)
    }

    /// Reads a whole video file held in memory (no network, no image sequences); `name` is used
    /// in errors.
    public convenience init(data: [UInt8], name: String = "<memory>", options: VideoReaderOptions = VideoReaderOptions()) throws(VideoError) {
        guard let input = MemoryInput(data) else { throw .cannotOpen(source: name, reason: "cannot allocate an I/O context") }
        try self.init(source: name, memory: input, options: options)
    }

    private init(source: String, memory: MemoryInput?, options: VideoReaderOptions) throws(VideoError) {
        if let problem = options.problem { throw .cannotOpen(source: source, reason: problem.description) }
        Self.prepareLibraries
        self.source = source
        self.memory = memory
        let input = try Self.inputFormat(for: source, named: options.inputFormat)
        kind = memory == nil ? VideoSourceKind(source, input: input) : .file
        timeout = options.timeout
        interrupt = .allocate(capacity: 1)
        interrupt.initialize(to: sd_interrupt_state())
        let opened: OpenedStream
        do {
            opened = try Self.open(source, input: input, kind: kind, memory: memory, interrupt: interrupt, options: options)
        } catch {
            interrupt.deallocate()
            throw error
        }
        format = opened.format
        codec = opened.codec
        streamIndex = opened.streamIndex
        let stream = opened.format.pointee.streams[Int(opened.streamIndex)]!
        timeBase = stream.pointee.time_base
        rotation = Int(sd_stream_rotation(stream))
        turn = options.autorotate ? rotation : 0
        let (storedWidth, storedHeight) = (Int(opened.codec.pointee.width), Int(opened.codec.pointee.height))
        (width, height) = turn == 90 || turn == 270 ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        codecName = String(cString: opened.codec.pointee.codec.pointee.name)
        pixelFormatName = av_get_pix_fmt_name(opened.codec.pointee.pix_fmt).map { String(cString: $0) } ?? "unknown"
        let rate = av_guess_frame_rate(opened.format, stream, nil)
        frameRate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil
        if stream.pointee.nb_frames > 0 {
            estimatedFrameCount = Int(stream.pointee.nb_frames)
        } else if !kind.isLive, opened.format.pointee.duration > 0, let frameRate {
            estimatedFrameCount = Int((Double(opened.format.pointee.duration) / Double(AV_TIME_BASE) * frameRate).rounded())
        } else {
            estimatedFrameCount = nil
        }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        avformat_close_input(&format)
        interrupt.deallocate()
    }

    /// Makes the current or next wait fail with `VideoError.cancelled` (thread-safe).
    public func cancel() {
        interrupt.pointee.cancelled = 1
    }

    /// The next frame in decode order, or nil at the end of the stream.
    /// - Throws: `VideoError.readFailed` (damaged or truncated input: thrown once the frames
    ///   decoded before the damage have been returned), `.timedOut`, `.cancelled`, `.noFrames`
    ///   (the stream ended without one decodable frame) or `.conversionFailed`.
    public func nextFrame() throws(VideoError) -> VideoFrame? {
        guard let codec, let format, let packet, let frame else { return nil }
        while !finished {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                return try makeFrame(frame)
            }
            if received == sd_averror_eof() || (draining && received != sd_averror_eagain()) {
                finished = true
                break
            }
            if received != sd_averror_eagain() {
                damagedPackets += 1
            }
            if draining {
                finished = true
                break
            }
            if !waitingForDevice { sd_set_deadline(interrupt, timeout) }
            let read = av_read_frame(format, packet)
            // A capture device is read without blocking (see `open`): no frame yet is a short
            // sleep, within the same deadline.
            waitingForDevice = read == sd_averror_eagain() && sd_interrupt_callback(interrupt) == 0
            if waitingForDevice {
                av_usleep(1000)
                continue
            }
            if read < 0 {
                if interrupt.pointee.cancelled != 0 {
                    pendingError = .cancelled(source: source)
                } else if interrupt.pointee.timed_out != 0 {
                    pendingError = .timedOut(source: source, seconds: timeout)
                } else if read != sd_averror_eof() {
                    pendingError = .readFailed(source: source, framesRead: framesRead, reason: ffmpegMessage(read))
                }
                avcodec_send_packet(codec, nil)  // flush: the decoder returns the frames it holds
                draining = true
                continue
            }
            if packet.pointee.stream_index == streamIndex {
                let sent = avcodec_send_packet(codec, packet)
                if (sent < 0 && sent != sd_averror_eagain()) || packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                    damagedPackets += 1
                }
            }
            av_packet_unref(packet)
        }
        if var error = pendingError {
            pendingError = nil
            if case .readFailed(let source, _, let reason) = error {
                error = .readFailed(source: source, framesRead: framesRead, reason: reason)
            }
            throw error
        }
        if framesRead == 0 { throw .noFrames(source: source) }
        if !kind.isLive && damagedPackets > 0 && !reportedDamage {
            // A file whose packets were cut short or failed to decode (a truncated MP4 ends
            // this way): the frames before the damage were returned, the end is an error.
            reportedDamage = true
            throw .readFailed(source: source, framesRead: framesRead,
                              reason: "\(damagedPackets) damaged or incomplete packet\(damagedPackets == 1 ? "" : "s")")
        }
        return nil
    }

    private func makeFrame(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> VideoFrame {
        let pixels = try converter.pixels(of: frame, clockwise: turn, source: source)
        let pts = frame.pointee.best_effort_timestamp
        let presentationTime: Duration
        if pts != sd_nopts_value(), timeBase.den > 0 {
            presentationTime = .rounded(seconds: Double(pts) * av_q2d(timeBase))
        } else if let lastPresentationTime {
            presentationTime = lastPresentationTime + .rounded(seconds: 1 / (frameRate ?? 25))
        } else {
            presentationTime = .zero
        }
        lastPresentationTime = presentationTime
        let index = framesRead
        framesRead += 1
        return VideoFrame(pixels: pixels, presentationTime: presentationTime, index: index, decodeInstant: .now)
    }

    /// Quiets libav*'s logs and makes libavdevice's inputs known to libavformat, once.
    private static let prepareLibraries: Void = {
        sd_quiet_logs()
        _ = CaptureDeviceLibrary.functions
    }()

    /// The demuxer or capture input `name` names (`ffmpeg -formats` lists them), or nil.
    static func findInputFormat(_ name: String) -> UnsafePointer<AVInputFormat>? {
        prepareLibraries
        return av_find_input_format(name)
    }
}

extension VideoReader: CustomStringConvertible {
    /// The source and what the stream declares, as
    /// `VideoReader(pan.mp4: file, h264 640 x 480, 25 fps)`.
    public var description: String {
        let rate = frameRate.map { rate in
            let rounded = (rate * 1000).rounded() / 1000
            let whole = rounded.isFinite && rounded == rounded.rounded() && abs(rounded) < 1e9
            return ", \(whole ? String(Int(rounded)) : String(rounded)) fps"
        } ?? ""
        return "VideoReader(\(source): \(kind), \(codecName) \(width) x \(height)\(rate))"
    }
}
