extension PlanarImage {
    /// A copy of the pixels inside `region`, which must lie within the image.
    func cropped(to region: PixelRegion) -> PlanarImage {
        precondition(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                     && region.x + region.width <= width && region.y + region.height <= height, "crop \(region) outside \(width)x\(height)")
        if region == PixelRegion(x: 0, y: 0, width: width, height: height) { return self }
        var crop = [Float](repeating: 0, count: channels * region.width * region.height)
        pixels.withUnsafeBufferPointer { source in
            crop.withUnsafeMutableBufferPointer { target in
                for c in 0..<channels {
                    for row in 0..<region.height {
                        let from = source.baseAddress! + (c * height + region.y + row) * width + region.x
                        (target.baseAddress! + (c * region.height + row) * region.width).update(from: from, count: region.width)
                    }
                }
            }
        }
        return PlanarImage(validatedWidth: region.width, height: region.height, channels: channels, pixels: crop)
    }
}
