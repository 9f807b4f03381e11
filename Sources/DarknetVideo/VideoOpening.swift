import CFFmpeg

/// A demuxer and an opened decoder for one video stream.
struct OpenedStream {
    let format: UnsafeMutablePointer<AVFormatContext>
    let codec: UnsafeMutablePointer<AVCodecContext>
    let streamIndex: Int32
}

extension VideoReader {
    /// Opens the container (bounded by the interrupt deadline), finds the best video stream
    /// and opens its decoder; frees everything it made if a step fails.
    static func open(_ source: String, input: UnsafePointer<AVInputFormat>?, kind: VideoSourceKind, memory: MemoryInput?,
                     interrupt: UnsafeMutablePointer<sd_interrupt_state>,
                     options: VideoReaderOptions) throws(VideoError) -> OpenedStream {
        guard var context = avformat_alloc_context() else {
            throw .cannotOpen(source: source, reason: "cannot allocate a format context")
        }
        sd_install_interrupt(context, interrupt)
        if kind == .device {
            // A camera that stops sending would block its read forever: read without blocking
            // and wait in `nextFrame`, within the deadline.
            context.pointee.flags |= AVFMT_FLAG_NONBLOCK
        }
        if let memory {
            context.pointee.pb = memory.context
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        if memory != nil {
            // Bytes in memory never name other files or URLs (playlists, concat lists).
            av_dict_set(&dictionary, "protocol_whitelist", "none", 0)
        }
        if kind == .network {
            let microseconds = String(Int64(options.timeout * 1e6))
            av_dict_set(&dictionary, "timeout", microseconds, 0)      // tcp, udp, http, rtsp socket I/O
            av_dict_set(&dictionary, "rw_timeout", microseconds, 0)   // any protocol's reads and writes
            av_dict_set(&dictionary, "overrun_nonfatal", "1", 0)      // udp: a full receive buffer drops, not fails
        }
        for (name, value) in options.inputOptions { av_dict_set(&dictionary, name, value, 0) }
        sd_set_deadline(interrupt, options.timeout)
        var optional: UnsafeMutablePointer<AVFormatContext>? = context
        let status = avformat_open_input(&optional, source, input, &dictionary)
        guard status >= 0, let opened = optional else {
            // avformat_open_input frees the context on failure.
            if interrupt.pointee.timed_out != 0 { throw .timedOut(source: source, seconds: options.timeout) }
            let camera = kind == .device && status == -ENOENT ? " (no camera there)" : ""
            throw .cannotOpen(source: source, reason: ffmpegMessage(status) + camera)
        }
        context = opened
        func fail(_ error: VideoError) -> VideoError {
            var pointer: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&pointer)
            return error
        }
        // avformat_open_input leaves in the dictionary the options nothing took.
        let unused = options.inputOptions.keys.filter { av_dict_get(dictionary, $0, nil, AV_DICT_MATCH_CASE) != nil }.sorted()
        if !unused.isEmpty {
            let name = String(cString: context.pointee.iformat.pointee.name)
            throw fail(.cannotOpen(source: source, reason: "\(name) has no option \(unused.map { "'\($0)'" }.joined(separator: ", "))"))
        }
        if let reason = misnamedGuess(context, source: source) { throw fail(.cannotOpen(source: source, reason: reason)) }
        sd_set_deadline(interrupt, options.timeout)
        let info = avformat_find_stream_info(context, nil)
        if info < 0 {
            if interrupt.pointee.timed_out != 0 { throw fail(.timedOut(source: source, seconds: options.timeout)) }
            throw fail(.cannotOpen(source: source, reason: ffmpegMessage(info)))
        }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder else {
            throw fail(.noVideoStream(source: source, reason: index < 0 ? ffmpegMessage(index) : "no decoder"))
        }
        for i in 0..<Int(context.pointee.nb_streams) where i != Int(index) {
            context.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }
        let stream = context.pointee.streams[Int(index)]!
        guard let codec = avcodec_alloc_context3(decoder) else {
            throw fail(.noVideoStream(source: source, reason: "cannot allocate a decoder"))
        }
        func failCodec(_ reason: String) -> VideoError {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = codec
            avcodec_free_context(&pointer)
            return fail(.noVideoStream(source: source, reason: reason))
        }
        var result = avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        if result < 0 { throw failCodec(ffmpegMessage(result)) }
        codec.pointee.pkt_timebase = stream.pointee.time_base
        codec.pointee.thread_count = Int32(clamping: options.decoderThreads)
        codec.pointee.max_pixels = Int64(options.maxPixels)
        let declared = Int64(stream.pointee.codecpar.pointee.width) * Int64(stream.pointee.codecpar.pointee.height)
        if declared > Int64(options.maxPixels) {
            throw failCodec("frame size \(stream.pointee.codecpar.pointee.width)x\(stream.pointee.codecpar.pointee.height) is over the limit of \(options.maxPixels) pixels")
        }
        result = avcodec_open2(codec, decoder, nil)
        if result < 0 { throw failCodec(ffmpegMessage(result)) }
        guard codec.pointee.width > 0, codec.pointee.height > 0 else {
            throw failCodec("frame size \(codec.pointee.width)x\(codec.pointee.height)")
        }
        return OpenedStream(format: context, codec: codec, streamIndex: index)
    }

    /// The input `name` names, else for a camera path (`/dev/video0`) V4L2's, else nil
    /// (libavformat probes).
    static func inputFormat(for source: String, named name: String?) throws(VideoError) -> UnsafePointer<AVInputFormat>? {
        guard let name = name ?? (VideoSourceKind(source) == .device ? "video4linux2" : nil) else { return nil }
        guard let format = findInputFormat(name) else {
            var reason = "this FFmpeg has no input format '\(name)' (`ffmpeg -formats` lists them)"
            if case .failure(let failure) = CaptureDeviceLibrary.functions { reason += "; \(failure)" }
            throw .cannotOpen(source: source, reason: reason)
        }
        return format
    }

    /// Why `source` is refused when libavformat recognised it only by a guess it warns about
    /// (probe score at most `AVPROBE_SCORE_RETRY`) while its name's extension belongs to another
    /// format: a damaged `.mp4` whose bytes happen to hold a raw H.263 picture start code would
    /// otherwise decode into frames of noise. Files without such an extension keep FFmpeg's guess.
    private static func misnamedGuess(_ context: UnsafeMutablePointer<AVFormatContext>, source: String) -> String? {
        let score = context.pointee.probe_score
        guard score <= sd_probe_score_retry(), let detected = context.pointee.iformat,
              let named = sd_demuxer_for_extension(source, detected) else { return nil }
        func title(_ format: UnsafePointer<AVInputFormat>) -> String {
            String(cString: format.pointee.long_name ?? format.pointee.name)
        }
        let path = source.prefix { $0 != "?" }
        let ext = path.split(separator: "/").last?.split(separator: ".").last ?? ""
        return "its name says \(title(named)) (.\(ext)), which it is not; libavformat's only guess is \(title(detected)), "
            + "with a low score of \(score) of 100 (misdetection possible)"
    }
}
