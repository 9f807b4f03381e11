import CFFmpeg
import Darknet

/// Turns decoded `AVFrame`s into `PixelBuffer`s.
///
/// Formats the core reads are wrapped without copying: `yuv420p` (I420, video range, or full
/// range when the frame says so), `yuvj420p` (I420 full range), `nv12`, `nv21`, `rgb24`, `bgr24`,
/// `rgba`, `bgra`, `argb`. The buffer holds its own reference to the frame's data and drops it
/// (`av_frame_free`) when its last copy is gone. Every other format (`yuvj422p` from MJPEG,
/// `yuv444p`, 10-bit, palettes, grey...) is converted by libswscale to packed `rgb24` with the
/// bicubic flags the `ffmpeg` command uses for its own automatic conversion, so frames match
/// what `ffmpeg -i VIDEO frame%04d.png` writes. A frame to be turned upright (`clockwise`) is
/// then copied turned, in the same format (`PixelBuffer.turned(clockwise:)`).
final class FrameConverter {
    private var scaler: OpaquePointer?

    deinit { sws_freeContext(scaler) }

    /// The frame's picture, turned `clockwise` degrees (0, 90, 180 or 270); `frame` keeps its own
    /// data (a result in the decoder's format, unturned, holds a new reference to it).
    func pixels(of frame: UnsafeMutablePointer<AVFrame>, clockwise: Int = 0, source: String) throws(VideoError) -> PixelBuffer {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { throw .conversionFailed(source: source, reason: "frame of size \(width)x\(height)") }
        let pixels: PixelBuffer
        if let format = Self.directFormat(frame), let buffer = try Self.wrap(frame, format: format) {
            pixels = buffer
        } else {
            pixels = try convertToRGB(frame, width: width, height: height, source: source)
        }
        guard clockwise != 0 else { return pixels }
        do {
            return try pixels.turned(clockwise: clockwise)
        } catch {
            throw .conversionFailed(source: source, reason: "cannot turn a \(width)x\(height) frame: \(error)")
        }
    }

    /// The core's format for the frame's pixel format, if it reads it directly.
    static func directFormat(_ frame: UnsafeMutablePointer<AVFrame>) -> PixelFormat? {
        let range: YUVRange = frame.pointee.color_range == AVCOL_RANGE_JPEG ? .full : .video
        switch frame.pointee.format {
        case AV_PIX_FMT_YUV420P.rawValue: return .i420(range)
        case AV_PIX_FMT_YUVJ420P.rawValue: return .i420(.full)
        case AV_PIX_FMT_NV12.rawValue: return .nv12(range)
        case AV_PIX_FMT_NV21.rawValue: return .nv21(range)
        case AV_PIX_FMT_RGB24.rawValue: return .rgb
        case AV_PIX_FMT_BGR24.rawValue: return .bgr
        case AV_PIX_FMT_RGBA.rawValue: return .rgba
        case AV_PIX_FMT_BGRA.rawValue: return .bgra
        case AV_PIX_FMT_ARGB.rawValue: return .argb
        default: return nil
        }
    }

    /// A zero-copy buffer over a new reference to `frame`'s planes; nil if the layout does not
    /// fit (negative strides), so the caller converts instead.
    ///
    /// The planes are separate allocations; the borrowed span runs from the lowest plane start
    /// to the highest plane end and only the planes' own rows inside it are ever read.
    private static func wrap(_ frame: UnsafeMutablePointer<AVFrame>, format: PixelFormat) throws(VideoError) -> PixelBuffer? {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        var starts: [UInt] = [], ends: [UInt] = [], strides: [Int] = []
        for plane in 0..<format.planeCount {
            guard let data = sd_frame_data(frame, Int32(plane)) else { return nil }
            let stride = Int(sd_frame_linesize(frame, Int32(plane)))
            let (rowBytes, rows) = PixelBuffer.planeSize(format: format, plane: plane, width: width, height: height)
            guard stride >= rowBytes else { return nil }
            let start = UInt(bitPattern: data)
            starts.append(start)
            ends.append(start + UInt((rows - 1) * stride + rowBytes))
            strides.append(stride)
        }
        guard let low = starts.min(), let high = ends.max(), let clone = av_frame_clone(frame),
              let base = UnsafeRawPointer(bitPattern: low) else { return nil }
        let handle = FrameHandle(frame: clone)
        let layouts = zip(starts, strides).map { PixelBuffer.PlaneLayout(offset: Int($0 - low), bytesPerRow: $1) }
        do {
            return try PixelBuffer(format: format, width: width, height: height,
                                   borrowing: UnsafeRawBufferPointer(start: base, count: Int(high - low)),
                                   planes: layouts, release: { handle.free() })
        } catch {
            handle.free()
            return nil
        }
    }

    /// libswscale's `rgb24` copy of a frame in a format the core does not read, into a frame of
    /// libavutil's own allocation: its SIMD paths write whole vectors, past the end of a row of
    /// `3 * width` bytes, and `av_frame_get_buffer` pads and aligns for that (an exactly sized
    /// array was overrun: heap corruption FuzzVideo found after 637,887 inputs).
    private func convertToRGB(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int,
                              source: String) throws(VideoError) -> PixelBuffer {
        let sourceFormat = AVPixelFormat(rawValue: frame.pointee.format)
        scaler = sws_getCachedContext(scaler, Int32(width), Int32(height), sourceFormat,
                                      Int32(width), Int32(height), AV_PIX_FMT_RGB24, SWS_BICUBIC, nil, nil, nil)
        guard let scaler else {
            let name = av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "format \(frame.pointee.format)"
            throw .conversionFailed(source: source, reason: "libswscale cannot convert \(name) to rgb24")
        }
        var output = av_frame_alloc()
        defer { av_frame_free(&output) }
        guard let rgb = output else { throw .conversionFailed(source: source, reason: "out of memory for an rgb24 frame") }
        rgb.pointee.width = Int32(width)
        rgb.pointee.height = Int32(height)
        rgb.pointee.format = AV_PIX_FMT_RGB24.rawValue
        let allocated = av_frame_get_buffer(rgb, 0)
        guard allocated >= 0 else {
            throw .conversionFailed(source: source, reason: "cannot allocate an rgb24 frame: \(ffmpegMessage(allocated))")
        }
        let rows = Self.withPlanes(frame) { planes, strides in
            Self.withPlanes(rgb) { destination, destinationStrides in
                // libswscale writes the pixels the pointers point at, never the pointer array.
                UnsafeMutablePointer(mutating: destination).withMemoryRebound(
                    to: UnsafeMutablePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { output in
                    sws_scale(scaler, planes, strides, 0, Int32(height), output, destinationStrides)
                }
            }
        }
        guard rows == Int32(height) else {
            throw .conversionFailed(source: source, reason: "libswscale returned \(rows) of \(height) rows")
        }
        // The result holds its own reference to the frame (freed here by the defer).
        guard let buffer = try Self.wrap(rgb, format: .rgb) else {
            throw .conversionFailed(source: source, reason: "libavutil gave an rgb24 frame with a negative stride")
        }
        return buffer
    }

    /// `frame`'s plane pointers and line sizes as the C arrays libswscale takes.
    private static func withPlanes<R>(_ frame: UnsafeMutablePointer<AVFrame>,
                                      _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
        withUnsafePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                withUnsafePointer(to: &frame.pointee.linesize) { lines in
                    lines.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { strides in
                        body(planes, strides)
                    }
                }
            }
        }
    }
}

/// A frame reference a pixel buffer owns; freed exactly once by its release closure.
private struct FrameHandle: @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>

    func free() {
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&pointer)
    }
}
