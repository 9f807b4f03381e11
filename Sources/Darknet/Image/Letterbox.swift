/// Fitting an image into a network input: Darknet's letterbox and a plain stretch.
extension PlanarImage {
    /// This image letterboxed into `width x height` exactly as Darknet's `letterbox_image`.
    ///
    /// The image is resized with ``resized(width:height:)`` to the size given by
    /// ``LetterboxGeometry`` (aspect ratio kept, Darknet's integer division) and pasted at
    /// `(geometry.offsetX, geometry.offsetY)` on a canvas filled with 0.5. The result equals
    /// Darknet's bit for bit.
    /// - Returns: the `channels x height x width` canvas and where the image sits in it.
    /// - Throws: `ImageError.invalidDimensions` if `width` or `height` is not positive, or the
    ///   canvas size overflows.
    public func letterboxed(width: Int, height: Int) throws(ImageError) -> (image: PlanarImage, geometry: LetterboxGeometry) {
        let (area, overflowA) = width.multipliedReportingOverflow(by: height)
        let (_, overflowB) = area.multipliedReportingOverflow(by: channels)
        guard width > 0, height > 0, !overflowA, !overflowB else {
            throw .invalidDimensions(width: width, height: height, channels: channels)
        }
        let geometry = LetterboxGeometry(imageWidth: self.width, imageHeight: self.height,
                                         networkWidth: width, networkHeight: height)
        let resized = try resized(width: geometry.resizedWidth, height: geometry.resizedHeight)
        var canvas = [Float](repeating: 0.5, count: channels * height * width)
        let rw = geometry.resizedWidth, rh = geometry.resizedHeight
        let ox = geometry.offsetX, oy = geometry.offsetY
        resized.pixels.withUnsafeBufferPointer { src in
            canvas.withUnsafeMutableBufferPointer { dst in
                for k in 0..<channels {
                    for y in 0..<rh {
                        let s = src.baseAddress! + (k * rh + y) * rw
                        let d = dst.baseAddress! + (k * height + y + oy) * width + ox
                        d.update(from: s, count: rw)
                    }
                }
            }
        }
        return (PlanarImage(validatedWidth: width, height: height, channels: channels, pixels: canvas), geometry)
    }

    /// This image stretched to `width x height` (aspect ratio not kept), as Darknet's
    /// `resize_image` does when a network is run without letterboxing.
    /// - Returns: the resized image and a geometry that maps boxes back
    ///   (`LetterboxGeometry(stretchingWidth:height:networkWidth:networkHeight:)`).
    /// - Throws: `ImageError.invalidDimensions` if `width` or `height` is not positive.
    public func stretched(width: Int, height: Int) throws(ImageError) -> (image: PlanarImage, geometry: LetterboxGeometry) {
        let image = try resized(width: width, height: height)
        let geometry = LetterboxGeometry(stretchingWidth: self.width, height: self.height,
                                         networkWidth: width, networkHeight: height)
        return (image, geometry)
    }
}
