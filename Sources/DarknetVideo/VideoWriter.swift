import CFFmpeg
import Darknet

/// Writes RGB pictures as a video file through libavcodec and libavformat: H.264 (`libx264`,
/// `yuv420p`) in the container the path's extension names (MP4, MKV...), or, when no H.264
/// encoder is present or `.mjpeg` is asked for, MJPEG (`yuvj420p`) in an AVI file.
///
/// Frames are timed by their presentation times, so a stream with dropped frames keeps its
/// pace. Call `finish()` to drain the encoder and write the trailer; without it the file is
/// incomplete.
public final class VideoWriter {
    /// The encoder in use.
    public enum Codec: Sendable, Equatable {
        /// H.264 through libx264 (`yuv420p`), in the container the path's extension names.
        case h264
        /// MJPEG (`yuvj420p`, quality 3) in AVI.
        case mjpeg
    }

    /// The file being written (for MJPEG fallback, the path with an `.avi` extension).
    public let destination: String
    /// The encoder in use (`.mjpeg` when H.264 was asked for but is missing).
    public let codec: Codec
    /// Frame size every written image must have.
    public let width: Int
    public let height: Int
    /// The size in the file: H.264 in 4:2:0 needs even sizes, so a frame of odd width or height
    /// is encoded without its last column or row (libx264 refuses odd sizes); MJPEG keeps it.
    public let encodedWidth: Int
    public let encodedHeight: Int

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private let frameRate: AVRational
    private var firstTimestamp: Double?
    private var lastPTS: Int64 = -1
    private var finished = false

    /// Creates `path` for `width`x`height` frames at `frameRate` frames per second.
    /// - Parameters:
    ///   - path: the file to write; its extension names the container (`.mp4`, `.mkv`, ...).
    ///   - width: the frames' width.
    ///   - height: the frames' height.
    ///   - frameRate: frames per second (25 when not a positive number).
    ///   - codec: `.h264` (default) falls back to `.mjpeg` in AVI without an H.264 encoder.
    /// - Throws: `VideoError.writeFailed` naming the file.
    public init(path: String, width: Int, height: Int, frameRate: Double, codec: Codec = .h264) throws(VideoError) {
        var chosen = codec
        var encoderCodec: UnsafePointer<AVCodec>?
        if chosen == .h264 {
            encoderCodec = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_H264)
            if encoderCodec == nil { chosen = .mjpeg }
        }
        var destination = path
        if chosen == .mjpeg {
            encoderCodec = avcodec_find_encoder(AV_CODEC_ID_MJPEG)
            if !path.lowercased().hasSuffix(".avi") {
                destination = (path.lastIndex(of: ".").map { String(path[..<$0]) } ?? path) + ".avi"
            }
        }
        guard let encoderCodec else { throw .writeFailed(destination: path, reason: "no H.264 or MJPEG encoder in libavcodec") }
        self.destination = destination
        self.codec = chosen
        self.width = width
        self.height = height
        (encodedWidth, encodedHeight) = chosen == .h264 ? (width & ~1, height & ~1) : (width, height)
        let rate = av_d2q(frameRate > 0 && frameRate.isFinite ? frameRate : 25, 100_000)
        self.frameRate = rate

        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&context, nil, chosen == .mjpeg ? "avi" : nil, destination)
        guard status >= 0, let context else {
            throw .writeFailed(destination: destination, reason: status < 0 ? ffmpegMessage(status) : "unknown container")
        }
        format = context
        guard let stream = avformat_new_stream(context, nil), let encoder = avcodec_alloc_context3(encoderCodec) else {
            avformat_free_context(context)
            throw .writeFailed(destination: destination, reason: "cannot allocate an encoder")
        }
        self.stream = stream
        self.encoder = encoder
        encoder.pointee.width = Int32(encodedWidth)
        encoder.pointee.height = Int32(encodedHeight)
        encoder.pointee.time_base = av_inv_q(rate)
        encoder.pointee.framerate = rate
        encoder.pointee.pix_fmt = chosen == .mjpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_YUV420P
        encoder.pointee.gop_size = 30
        if chosen == .mjpeg {
            encoder.pointee.flags |= AV_CODEC_FLAG_QSCALE
            encoder.pointee.global_quality = 3 * FF_QP2LAMBDA
        } else {
            av_opt_set(encoder.pointee.priv_data, "preset", "veryfast", 0)
        }
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        func fail(_ code: Int32) -> VideoError {
            release()
            return .writeFailed(destination: destination, reason: ffmpegMessage(code))
        }
        status = avcodec_open2(encoder, encoderCodec, nil)
        if status < 0 { throw fail(status) }
        status = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        if status < 0 { throw fail(status) }
        stream.pointee.time_base = encoder.pointee.time_base
        stream.pointee.avg_frame_rate = rate
        status = avio_open(&context.pointee.pb, destination, AVIO_FLAG_WRITE)
        if status < 0 { throw fail(status) }
        status = avformat_write_header(context, nil)
        if status < 0 { throw fail(status) }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame, packet != nil else { throw fail(-12) }
        frame.pointee.format = encoder.pointee.pix_fmt.rawValue
        frame.pointee.width = Int32(encodedWidth)
        frame.pointee.height = Int32(encodedHeight)
        status = av_frame_get_buffer(frame, 0)
        if status < 0 { throw fail(status) }
    }

    deinit { release() }

    /// Encodes one picture shown at `timestamp` seconds.
    @available(*, deprecated, message: "use write(_:presentationTime:) with a Duration")
    public func write(_ image: PlanarImage, timestamp: Double) throws(VideoError) {
        try write(image, presentationTime: .rounded(seconds: timestamp))
    }

    /// Encodes one picture.
    /// - Parameters:
    ///   - image: 3-channel planar RGB floats in [0, 1] of this writer's size.
    ///   - presentationTime: when it is shown; the first picture's time counts as zero.
    public func write(_ image: PlanarImage, presentationTime: Duration) throws(VideoError) {
        let timestamp = presentationTime.inSeconds
        guard !finished, let frame, let encoder else { throw .writeFailed(destination: destination, reason: "already finished") }
        guard image.width == width, image.height == height, image.channels == 3 else {
            throw .writeFailed(destination: destination, reason: "frame \(image.width)x\(image.height)x\(image.channels), expected \(width)x\(height)x3")
        }
        let rgb = Self.interleavedBytes(image)
        var status = av_frame_make_writable(frame)
        if status < 0 { throw .writeFailed(destination: destination, reason: ffmpegMessage(status)) }
        // The rows' first encodedWidth pixels and the first encodedHeight rows: a crop, not a scale.
        scaler = sws_getCachedContext(scaler, Int32(encodedWidth), Int32(encodedHeight), AV_PIX_FMT_RGB24,
                                      Int32(encodedWidth), Int32(encodedHeight), encoder.pointee.pix_fmt, SWS_BICUBIC, nil, nil, nil)
        guard let scaler else { throw .writeFailed(destination: destination, reason: "libswscale cannot convert rgb24") }
        rgb.withUnsafeBufferPointer { bytes in
            var sources: [UnsafePointer<UInt8>?] = [bytes.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(3 * width), 0, 0, 0]
            withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                    withUnsafePointer(to: &frame.pointee.linesize) { lines in
                        lines.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { lineSizes in
                            _ = sws_scale(scaler, &sources, &strides, 0, Int32(encodedHeight), planes, lineSizes)
                        }
                    }
                }
            }
        }
        let start = firstTimestamp ?? timestamp
        firstTimestamp = start
        var pts = Int64(((timestamp - start) * av_q2d(frameRate)).rounded())
        if pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        frame.pointee.pts = pts
        status = avcodec_send_frame(encoder, frame)
        if status < 0 { throw .writeFailed(destination: destination, reason: ffmpegMessage(status)) }
        try drainPackets()
    }

    /// Flushes the encoder, writes the container's trailer and closes the file.
    public func finish() throws(VideoError) {
        guard !finished, let encoder, let format else { return }
        finished = true
        avcodec_send_frame(encoder, nil)
        try drainPackets()
        let status = av_write_trailer(format)
        avio_closep(&format.pointee.pb)
        if status < 0 { throw .writeFailed(destination: destination, reason: ffmpegMessage(status)) }
    }

    private func drainPackets() throws(VideoError) {
        guard let encoder, let packet, let format else { return }
        while true {
            let status = avcodec_receive_packet(encoder, packet)
            if status == sd_averror_eagain() || status == sd_averror_eof() { return }
            if status < 0 { throw .writeFailed(destination: destination, reason: ffmpegMessage(status)) }
            av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(format, packet)
            if written < 0 { throw .writeFailed(destination: destination, reason: ffmpegMessage(written)) }
        }
    }

    private func release() {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&encoder)
        sws_freeContext(scaler)
        scaler = nil
        if let format {
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
            self.format = nil
        }
    }

    /// Packed 8-bit RGB of a planar float image (clamped, rounded to nearest).
    static func interleavedBytes(_ image: PlanarImage) -> [UInt8] {
        let area = image.width * image.height
        var bytes = [UInt8](repeating: 0, count: 3 * area)
        image.pixels.withUnsafeBufferPointer { planes in
            bytes.withUnsafeMutableBufferPointer { out in
                for c in 0..<3 {
                    let plane = planes.baseAddress! + c * area
                    for i in 0..<area {
                        let value = plane[i]
                        out[3 * i + c] = value.isNaN ? 0 : UInt8((min(max(value, 0), 1) * 255).rounded())
                    }
                }
            }
        }
        return bytes
    }
}
