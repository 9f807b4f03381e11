/// How 8-bit pixels are laid out in memory.
///
/// | format | planes | bytes per pixel | byte order |
/// |---|---|---|---|
/// | `.rgba` | 1 | 4 | R, G, B, A |
/// | `.bgra` | 1 | 4 | B, G, R, A (AVFoundation's `kCVPixelFormatType_32BGRA`, CGContext little-endian) |
/// | `.argb` | 1 | 4 | A, R, G, B |
/// | `.rgb` | 1 | 3 | R, G, B (`ffmpeg -pix_fmt rgb24`) |
/// | `.bgr` | 1 | 3 | B, G, R (OpenCV's `Mat`) |
/// | `.gray` | 1 | 1 | luminance, replicated to R, G, B as Darknet does for grey images |
/// | `.nv12` | 2 | 1.5 | Y plane, then one plane of interleaved Cb, Cr at half width and height |
/// | `.nv21` | 2 | 1.5 | as NV12 with Cr first (Android's camera default, `ImageFormat.NV21`) |
/// | `.i420` | 3 | 1.5 | Y, Cb, Cr planes, chroma at half width and height (`yuv420p`) |
/// | `.yuyv` | 1 | 2 | Y0, Cb, Y1, Cr: two pixels sharing their chroma (`yuyv422`, V4L2's `YUYV`, USB webcams) |
/// | `.uyvy` | 1 | 2 | Cb, Y0, Cr, Y1 (`uyvy422`, capture cards, `kCVPixelFormatType_422YpCbCr8`) |
///
/// Alpha is ignored. YUV is BT.601 (the SD matrix, which FFmpeg's `swscale` also applies to
/// HD frames unless told otherwise), in video range (`Y` 16–235, chroma 16–240) or full range
/// (0–255, JPEG and `yuvj420p`). A chroma sample covers a 2×2 block of luma samples (2×1 in
/// the packed 4:2:2 formats; no interpolation), with `swscale`'s integer arithmetic: even-sized frames convert to exactly
/// the bytes `ffmpeg -pix_fmt rgb24` writes from `yuv420p`/`yuvj420p` (for odd sizes, and for
/// NV12 and NV21 input, `swscale` switches to its general scaler, which interpolates chroma).
///
/// A one-channel network input (a greyscale `channels=1` cfg) takes `.gray` and the luma (`Y`)
/// of every YUV layout as it is, unconverted; the RGB family is converted to grey with the
/// integer weights a photo is read with for it (OpenCV's `cvtColor(COLOR_BGR2GRAY)`).
public enum PixelFormat: Sendable, Hashable, CustomStringConvertible {
    case rgba, bgra, argb, rgb, bgr, gray
    /// Two planes: luma, then interleaved Cb/Cr.
    case nv12(YUVRange)
    /// Two planes: luma, then interleaved Cr/Cb.
    case nv21(YUVRange)
    /// Three planes: luma, Cb, Cr.
    case i420(YUVRange)
    /// One plane of Y0, Cb, Y1, Cr: each pair of pixels shares its chroma (4:2:2).
    case yuyv(YUVRange)
    /// One plane of Cb, Y0, Cr, Y1: each pair of pixels shares its chroma (4:2:2).
    case uyvy(YUVRange)

    /// Planes in memory.
    public var planeCount: Int {
        switch self {
        case .rgba, .bgra, .argb, .rgb, .bgr, .gray, .yuyv, .uyvy: 1
        case .nv12, .nv21: 2
        case .i420: 3
        }
    }

    /// Whether the format is one of the YUV layouts.
    public var isYUV: Bool {
        switch self {
        case .rgba, .bgra, .argb, .rgb, .bgr, .gray: false
        case .nv12, .nv21, .i420, .yuyv, .uyvy: true
        }
    }

    /// Bytes one pixel takes in a packed (single-plane) format (two for YUYV and UYVY); for
    /// planar YUV, bytes per luma sample.
    var bytesPerPixel: Int {
        switch self {
        case .rgba, .bgra, .argb: 4
        case .rgb, .bgr: 3
        case .yuyv, .uyvy: 2
        case .gray, .nv12, .nv21, .i420: 1
        }
    }

    /// Byte offsets of red, green and blue inside a packed pixel (all 0 for grey).
    var channelOffsets: (red: Int, green: Int, blue: Int) {
        switch self {
        case .rgba, .rgb: (0, 1, 2)
        case .bgra, .bgr: (2, 1, 0)
        case .argb: (1, 2, 3)
        case .gray, .nv12, .nv21, .i420, .yuyv, .uyvy: (0, 0, 0)
        }
    }

    public var description: String {
        switch self {
        case .rgba: "RGBA"
        case .bgra: "BGRA"
        case .argb: "ARGB"
        case .rgb: "RGB"
        case .bgr: "BGR"
        case .gray: "gray"
        case .nv12(let range): "NV12 (\(range))"
        case .nv21(let range): "NV21 (\(range))"
        case .i420(let range): "I420 (\(range))"
        case .yuyv(let range): "YUYV (\(range))"
        case .uyvy(let range): "UYVY (\(range))"
        }
    }
}

/// The value range of BT.601 YUV samples.
public enum YUVRange: Sendable, Hashable, CustomStringConvertible {
    /// "Studio" range: luma 16–235, chroma 16–240 (cameras' and video codecs' default).
    case video
    /// Full range: every sample 0–255 (JPEG, MJPEG, `yuvj420p`).
    case full

    public var description: String { self == .video ? "video range" : "full range" }
}
