import Darknet
import XCTest

/// `PixelBuffer.turned(clockwise:)` against repeated quarter turns written here, plane by plane:
/// every format, odd sizes (4:2:0 chroma of half the size rounded up), padded rows and crops.
final class PixelTurnTests: XCTestCase {
    /// Every format a frame can come in turns plane by plane, odd sizes included (4:2:0 chroma
    /// of half the size rounded up), at 90, 180 and 270 degrees.
    func testEveryFormatTurnsPlaneByPlane() throws {
        var random = UInt64(7)
        func bytes(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in
                random = random &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: random >> 56)
            }
        }
        let (width, height) = (7, 5), (chromaWidth, chromaHeight) = (4, 3)
        let buffers: [PixelBuffer] = [
            try PixelBuffer(format: .i420(.full), width: width, height: height,
                            planes: [.init(bytes: bytes(9 * height), bytesPerRow: 9),
                                     .init(bytes: bytes(5 * chromaHeight), bytesPerRow: 5),
                                     .init(bytes: bytes(4 * chromaHeight), bytesPerRow: 4)]),
            try PixelBuffer(format: .nv12(.video), width: width, height: height,
                            planes: [.init(bytes: bytes(7 * height), bytesPerRow: 7),
                                     .init(bytes: bytes(2 * chromaWidth * chromaHeight), bytesPerRow: 2 * chromaWidth)]),
            try PixelBuffer(format: .nv21(.full), width: width, height: height,
                            planes: [.init(bytes: bytes(8 * height), bytesPerRow: 8),
                                     .init(bytes: bytes(10 * chromaHeight), bytesPerRow: 10)]),
            try PixelBuffer(format: .rgb, width: width, height: height, bytes: bytes(23 * height), bytesPerRow: 23),
            try PixelBuffer(format: .bgra, width: width, height: height, bytes: bytes(4 * width * height)),
            try PixelBuffer(format: .gray, width: width, height: height, bytes: bytes(width * height)),
        ]
        for buffer in buffers {
            for degrees in [90, 180, 270] {
                let turned = try buffer.turned(clockwise: degrees)
                XCTAssertTrue(Self.isTurned(turned, from: buffer, by: degrees), "\(buffer.format), \(degrees)°")
            }
        }
    }

    /// Crops turn their visible area; a YUV crop must start on even coordinates, and 0° is the
    /// buffer itself.
    func testCropsTurnTheirVisibleArea() throws {
        let bytes = (0..<(9 * 8 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let bgra = try PixelBuffer(format: .bgra, width: 9, height: 8, bytes: bytes)
        let crop = try bgra.cropped(to: PixelRegion(x: 3, y: 1, width: 5, height: 6))
        let copy = try PixelBuffer(format: .bgra, width: 5, height: 6, bytes: Self.planes(crop)[0].bytes)
        for degrees in [90, 180, 270] {
            XCTAssertTrue(Self.isTurned(try crop.turned(clockwise: degrees), from: copy, by: degrees), "\(degrees)°")
        }
        XCTAssertEqual(Self.planes(try crop.turned(clockwise: 0)).map(\.bytes), Self.planes(crop).map(\.bytes))

        let luma = (0..<(8 * 6)).map { UInt8($0) }, chroma = (0..<(4 * 3)).map { UInt8(100 + $0) }
        let i420 = try PixelBuffer(format: .i420(.video), width: 8, height: 6,
                                   planes: [.init(bytes: luma, bytesPerRow: 8), .init(bytes: chroma, bytesPerRow: 4),
                                            .init(bytes: chroma.reversed(), bytesPerRow: 4)])
        let even = try i420.cropped(to: PixelRegion(x: 2, y: 2, width: 5, height: 3))
        let evenTurned = try even.turned(clockwise: 90)
        XCTAssertEqual([evenTurned.width, evenTurned.height], [3, 5])
        XCTAssertEqual(Self.planes(evenTurned)[1].bytes, [109, 105, 110, 106, 111, 107], "chroma (1...3, 1...2) turned")
        XCTAssertThrowsError(try i420.cropped(to: PixelRegion(x: 1, y: 2, width: 4, height: 2)).turned(clockwise: 90)) { error in
            XCTAssertEqual(error as? PixelBufferError, .unalignedYUVCrop(x: 1, y: 2))
        }
    }

    /// A grid of `sampleBytes`-byte samples turned 90° clockwise: the new row y is the old
    /// column y read bottom to top.
    static func quarterTurn(_ samples: [UInt8], width: Int, height: Int, sampleBytes: Int = 3)
        -> (pixels: [UInt8], width: Int, height: Int) {
        var turned: [UInt8] = []
        for column in 0..<width {
            for row in (0..<height).reversed() {
                let start = sampleBytes * (row * width + column)
                turned += samples[start..<(start + sampleBytes)]
            }
        }
        return (turned, height, width)
    }

    /// Each plane of `buffer` as (samples without row padding, samples per row, rows, bytes per sample).
    static func planes(_ buffer: PixelBuffer) -> [(bytes: [UInt8], width: Int, height: Int, sampleBytes: Int)] {
        let chroma = ((buffer.width + 1) / 2, (buffer.height + 1) / 2)
        let grids: [(Int, Int, Int)] = switch buffer.format {
        case .i420: [(buffer.width, buffer.height, 1), (chroma.0, chroma.1, 1), (chroma.0, chroma.1, 1)]
        case .nv12, .nv21: [(buffer.width, buffer.height, 1), (chroma.0, chroma.1, 2)]
        case .rgb, .bgr: [(buffer.width, buffer.height, 3)]
        case .rgba, .bgra, .argb: [(buffer.width, buffer.height, 4)]
        case .gray: [(buffer.width, buffer.height, 1)]
        case .yuyv, .uyvy: [(buffer.width, buffer.height, 2)]
        }
        return grids.enumerated().map { plane, grid in
            let (width, height, sampleBytes) = grid
            let bytes = buffer.withUnsafePlane(plane) { bytes, bytesPerRow in
                (0..<height).flatMap { row in Array(bytes[(row * bytesPerRow)..<(row * bytesPerRow + sampleBytes * width)]) }
            }
            return (bytes, width, height, sampleBytes)
        }
    }

    /// Whether `turned` is `original` turned `degrees` clockwise, plane by plane (checked by
    /// repeated quarter turns).
    static func isTurned(_ turned: PixelBuffer, from original: PixelBuffer, by degrees: Int) -> Bool {
        guard turned.format == original.format else { return false }
        return zip(planes(turned), planes(original)).allSatisfy { after, before in
            var grid = (pixels: before.bytes, width: before.width, height: before.height)
            for _ in 0..<(degrees / 90) {
                grid = quarterTurn(grid.pixels, width: grid.width, height: grid.height, sampleBytes: before.sampleBytes)
            }
            return grid.pixels == after.bytes && grid.width == after.width && grid.height == after.height
        }
    }

}
