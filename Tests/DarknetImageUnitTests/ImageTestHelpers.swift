import Darknet
import DarknetImage
import TestSupport
import XCTest

/// Planar float pixels Darknet would produce from interleaved 8-bit RGB.
func expectedPlanes(rgb: [UInt8], width: Int, height: Int) -> [Float] {
    var planes = [Float](repeating: 0, count: 3 * width * height)
    for i in 0..<(width * height) {
        for c in 0..<3 { planes[c * width * height + i] = Float(Double(rgb[3 * i + c]) / 255.0) }
    }
    return planes
}

/// An RGB image whose every pixel is a distinct value pattern, for orientation tests.
func gradientImage(width: Int, height: Int) throws -> PlanarImage {
    var pixels = [Float](repeating: 0, count: 3 * width * height)
    for y in 0..<height {
        for x in 0..<width {
            pixels[y * width + x] = Float(x) / Float(max(1, width - 1))
            pixels[width * height + y * width + x] = Float(y) / Float(max(1, height - 1))
            pixels[2 * width * height + y * width + x] = Float((x * 7 + y * 13) % 17) / 16
        }
    }
    return try PlanarImage(width: width, height: height, channels: 3, pixels: pixels)
}
