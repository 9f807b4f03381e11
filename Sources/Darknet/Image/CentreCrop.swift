/// The input `darknet classifier valid` gives a classifier (Darknet's `center_crop_image`): the
/// largest centred square, resized to the network's size, where prediction letterboxes instead.
extension PlanarImage {
    /// `width x height` pixels from column `x`, row `y` on, as Darknet's `crop_image` cuts
    /// them: a position outside the image takes the pixel of the nearest edge.
    /// - Throws: `ImageError.invalidDimensions` if `width` or `height` is not positive.
    public func crop(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) throws(ImageError) -> PlanarImage {
        let (area, areaOverflow) = cropWidth.multipliedReportingOverflow(by: cropHeight)
        guard cropWidth > 0, cropHeight > 0, !areaOverflow, !area.multipliedReportingOverflow(by: channels).overflow else {
            throw .invalidDimensions(width: cropWidth, height: cropHeight, channels: channels)
        }
        var out = [Float](repeating: 0, count: channels * cropHeight * cropWidth)
        let columns = (0..<cropWidth).map { min(max(x + $0, 0), width - 1) }
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for channel in 0..<channels {
                    for row in 0..<cropHeight {
                        let sourceRow = (channel * height + min(max(y + row, 0), height - 1)) * width
                        let targetRow = (channel * cropHeight + row) * cropWidth
                        for (column, sourceColumn) in columns.enumerated() {
                            target[targetRow + column] = source[sourceRow + sourceColumn]
                        }
                    }
                }
            }
        }
        return PlanarImage(validatedWidth: cropWidth, height: cropHeight, channels: channels, pixels: out)
    }

    /// `darknet classifier valid`'s network input, as Darknet's `center_crop_image` makes it: the
    /// centred square whose side is the shorter side (offsets rounded toward zero), resized to
    /// `width x height` with `resized(width:height:)`.
    /// - Throws: `ImageError.invalidDimensions` if `width` or `height` is not positive.
    public func centreCropped(width newWidth: Int, height newHeight: Int) throws(ImageError) -> PlanarImage {
        let side = min(width, height)
        return try crop(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
            .resized(width: newWidth, height: newHeight)
    }
}
