import Darknet

/// The size checks every decoder applies to a header before it allocates pixels.
struct DecodeLimits: Sendable {
    /// No side may exceed this, whatever `maxPixels` says.
    static let maxDimension = 65_535

    /// Largest `width * height` accepted.
    let maxPixels: Int

    /// Throws `ImageFileError.tooLarge` if a header's `width x height` is over the limits.
    func check(width: Int, height: Int, path: String) throws(ImageFileError) {
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        if width > Self.maxDimension || height > Self.maxDimension || overflow || area > maxPixels {
            throw .tooLarge(path: path, width: width, height: height, limit: maxPixels)
        }
    }

    /// `maxPixels` as the C helpers take it (negative limits refuse everything).
    var cMaxPixels: UInt64 { UInt64(max(0, maxPixels)) }
    var cMaxDimension: UInt32 { UInt32(Self.maxDimension) }
}
