import Darknet
import Foundation

/// Reading images (JPEG, PNG, BMP, TIFF, WebP, Netpbm, HEIC/AVIF) and writing them as JPEG or PNG.
///
/// Decoded pixels are exactly the values Darknet's `load_image_color` gives (OpenCV
/// `imread(IMREAD_COLOR)` with libjpeg-turbo, libpng, libtiff and libwebp, then
/// `byte / 255.0` as float, planar RGB); HEIC and AVIF, which Darknet does not read, are
/// libheif's RGB. Nothing is printed (libde265 alone may write a line for a damaged HEIC); every
/// failure is an `ImageFileError` naming the file.
extension PlanarImage {
    /// The name used in errors for images decoded from memory.
    public static let inMemoryPath = "<data>"

    /// Decodes the image file at `url` (format taken from its first bytes; see ``ImageFormat``).
    ///
    /// - Parameters:
    ///   - url: a file URL.
    ///   - maxPixels: largest `width * height` accepted; checked against the file header
    ///     before any pixel memory is allocated. Sides above 65535 are always refused.
    /// - Throws: `ImageFileError.unreadable` (missing, unreadable, empty or oversized file),
    ///   `.unsupportedFormat` (none of the formats), `.corrupt` (damaged or truncated data),
    ///   `.unsupportedVariant` (e.g. an animated WebP), `.tooLarge` (header over the limits).
    public init(contentsOf url: URL, maxPixels: Int = 100_000_000) throws(ImageFileError) {
        guard url.isFileURL else {
            throw .unreadable(path: url.absoluteString, reason: "not a file URL")
        }
        let path = url.path
        // Nothing within the limit needs more than 8 bytes per pixel stored raw, nor 24 as
        // plain-text Netpbm ("65535 " per sample).
        let bytes = try FileIO.readFile(path: path, maxBytes: Self.maxFileBytes(maxPixels))
        try self.init(bytes: bytes, path: path, maxPixels: maxPixels)
    }

    /// Decodes the image file at `url` with `channels` channels, as AlexeyAB's darknet loads an
    /// image for a network of that many input channels (`load_image(file, 0, 0, net.c)`, built
    /// with OpenCV): 3 is ``init(contentsOf:maxPixels:)``; 1 is OpenCV's
    /// `imread(IMREAD_GRAYSCALE)`, byte for byte.
    ///
    /// For one channel, a JPEG is decoded to libjpeg's own grey (the luma as stored, no RGB
    /// round trip); an 8-bit PNG goes through libpng's `rgb_to_gray` with OpenCV's weights
    /// 0.299 and 0.587 (`(9797 R + 19234 G + 3737 B) >> 15`); any other format is decoded in
    /// colour and converted with OpenCV's `cvtColor(COLOR_BGR2GRAY)` (`(4899 R + 9617 G + 1868 B
    /// + 8192) >> 14`). A grey file gives its own values either way. (A 16-bit PNG and a CMYK JPEG
    /// take the colour route: OpenCV's exact handling of those is not reproduced.)
    ///
    /// ```swift
    /// let grey = try PlanarImage(contentsOf: photoURL, channels: detector.network.inputShape.channels)
    /// ```
    /// - Parameters:
    ///   - url: a file URL.
    ///   - channels: 1 or 3, the network input's channel count.
    ///   - maxPixels: as ``init(contentsOf:maxPixels:)``.
    /// - Throws: `ArgumentError` naming `channels` for another count; the `ImageFileError`s of
    ///   ``init(contentsOf:maxPixels:)``.
    public init(contentsOf url: URL, channels: Int, maxPixels: Int = 100_000_000) throws {
        try ArgumentError.require(channels == 1 || channels == 3, "channels", channels, expected: "1 or 3")
        guard channels == 1 else {
            try self.init(contentsOf: url, maxPixels: maxPixels)
            return
        }
        guard url.isFileURL else {
            throw ImageFileError.unreadable(path: url.absoluteString, reason: "not a file URL")
        }
        let bytes = try FileIO.readFile(path: url.path, maxBytes: Self.maxFileBytes(maxPixels))
        self = try Self.greyscale(bytes: bytes, path: url.path, maxPixels: maxPixels)
    }

    /// `init(contentsOf:channels:maxPixels:)` for an image held in memory; errors name
    /// ``inMemoryPath``.
    public init(data: [UInt8], channels: Int, maxPixels: Int = 100_000_000) throws {
        try ArgumentError.require(channels == 1 || channels == 3, "channels", channels, expected: "1 or 3")
        self = channels == 1 ? try Self.greyscale(bytes: data, path: Self.inMemoryPath, maxPixels: maxPixels)
                             : try PlanarImage(data: data, maxPixels: maxPixels)
    }

    /// `init(data:channels: 1)` with its one error type, for callers with typed throws.
    package init(greyscaleData data: [UInt8], maxPixels: Int) throws(ImageFileError) {
        self = try Self.greyscale(bytes: data, path: Self.inMemoryPath, maxPixels: maxPixels)
    }

    /// One channel, as `imread(IMREAD_GRAYSCALE)` reads `bytes`.
    private static func greyscale(bytes: [UInt8], path: String, maxPixels: Int) throws(ImageFileError) -> PlanarImage {
        guard !bytes.isEmpty else { throw .unreadable(path: path, reason: "the file is empty") }
        let format = ImageFormat(sniffing: bytes)
        if format == .jpeg {
            let image = try JPEGDecoder.decode(bytes, path: path, limits: DecodeLimits(maxPixels: maxPixels), grey: true)
            if image.channels == 1 { return image }
            return image.openCVGrey(pngWeights: false)  // CMYK
        }
        let colour = try PlanarImage(bytes: bytes, path: path, maxPixels: maxPixels)
        return colour.openCVGrey(pngWeights: format == .png)
    }

    /// Bytes a file within `maxPixels` can need (see `init(contentsOf:maxPixels:)`).
    private static func maxFileBytes(_ maxPixels: Int) -> Int {
        let (scaled, overflow) = max(0, maxPixels).multipliedReportingOverflow(by: 24)
        return overflow ? Int.max : scaled + (1 << 20)
    }

    /// This RGB image in one channel with OpenCV's integer weights: libpng's `rgb_to_gray`
    /// (`pngWeights`) or `cvtColor(COLOR_BGR2GRAY)` (`Luma`, the conversion RGB-family frames take
    /// for a greyscale network too).
    private func openCVGrey(pngWeights: Bool) -> PlanarImage {
        guard pngWeights else { return greyscaled() }
        let area = width * height, lut = ByteToFloat.table
        let byte = { (value: Float) -> Int in Int((value * 255).rounded()) }
        // The weighted sum spelled out one term at a time: Swift 6.0 (the aarch64 build's) gave up
        // type-checking it as one expression.
        let luma: (Int, Int, Int) -> Int = { r, g, b in
            let sum: Int = 9797 * r + 19234 * g
            return (sum + 3737 * b) >> 15
        }
        let grey: [Float] = (0..<area).map { (i: Int) -> Float in
            lut[luma(byte(pixels[i]), byte(pixels[area + i]), byte(pixels[2 * area + i]))]
        }
        return PlanarImage(validatedWidth: width, height: height, channels: 1, pixels: grey)
    }

    /// Decodes an image held in memory (format taken from its first bytes).
    ///
    /// Same rules and errors as ``init(contentsOf:maxPixels:)``; errors name
    /// ``inMemoryPath``.
    public init(data: [UInt8], maxPixels: Int = 100_000_000) throws(ImageFileError) {
        try self.init(bytes: data, path: Self.inMemoryPath, maxPixels: maxPixels)
    }

    /// Decodes an image held in memory; same rules and errors as the `[UInt8]` form.
    public init(data: Data, maxPixels: Int = 100_000_000) throws(ImageFileError) {
        try self.init(bytes: [UInt8](data), path: Self.inMemoryPath, maxPixels: maxPixels)
    }

    private init(bytes: [UInt8], path: String, maxPixels: Int) throws(ImageFileError) {
        guard !bytes.isEmpty else {
            throw .unreadable(path: path, reason: "the file is empty")
        }
        let limits = DecodeLimits(maxPixels: maxPixels)
        switch ImageFormat(sniffing: bytes) {
        case .jpeg:
            self = try JPEGDecoder.decode(bytes, path: path, limits: limits)
        case .png:
            self = try PNGDecoder.decode(bytes, path: path, limits: limits)
        case .bmp:
            self = try BMPDecoder.decode(bytes, path: path, limits: limits)
        case .tiff:
            self = try TIFFDecoder.decode(bytes, path: path, limits: limits)
        case .webp:
            self = try WebPDecoder.decode(bytes, path: path, limits: limits)
        case .netpbm:
            self = try NetpbmDecoder.decode(bytes, path: path, limits: limits)
        case .heif:
            self = try HEIFDecoder.decode(bytes, path: path, limits: limits)
        case nil:
            throw .unsupportedFormat(path: path)
        }
    }

    /// The image encoded as PNG (8-bit RGB for 3 channels, 8-bit grey for 1).
    ///
    /// Values are clamped to `[0, 1]` and rounded to the nearest byte, so decoding the PNG
    /// gives back exactly `byte / 255` values.
    /// - Throws: `ImageFileError.writeFailed` for other channel counts or if libpng fails.
    public func pngData() throws(ImageFileError) -> [UInt8] {
        try PNGEncoder.encode(self, path: Self.inMemoryPath)
    }

    /// The image encoded as baseline JPEG (3 or 1 channels) at `quality` (1...100).
    /// - Throws: `ImageFileError.writeFailed` for other channel counts or if libjpeg fails.
    public func jpegData(quality: Int = 90) throws(ImageFileError) -> [UInt8] {
        try JPEGEncoder.encode(self, quality: quality, path: Self.inMemoryPath)
    }

    /// Writes the image to `url` as PNG (`.png`) or JPEG (`.jpg`, `.jpeg`, at
    /// `jpegQuality`), chosen by the extension. The file is replaced atomically.
    /// - Throws: `ImageFileError.writeFailed` for another extension, an unsupported channel
    ///   count, or a failed write.
    public func write(to url: URL, jpegQuality: Int = 90) throws(ImageFileError) {
        guard url.isFileURL else {
            throw .writeFailed(path: url.absoluteString, reason: "not a file URL")
        }
        let path = url.path
        let bytes: [UInt8]
        switch ImageFormat(pathExtension: url.pathExtension) {
        case .png: bytes = try PNGEncoder.encode(self, path: path)
        case .jpeg: bytes = try JPEGEncoder.encode(self, quality: jpegQuality, path: path)
        case let other?:
            throw .writeFailed(path: path, reason: "\(other.rawValue) is read, not written: use .png, .jpg or .jpeg")
        case nil:
            throw .writeFailed(path: path, reason: "unknown extension '\(url.pathExtension)': use .png, .jpg or .jpeg")
        }
        try FileIO.writeFile(bytes, to: path)
    }
}
