@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// YUV frames convert to the RGB bytes FFmpeg's `swscale` writes for them (`ffmpeg -pix_fmt
/// rgb24`), within 1/255 per channel; measured on Darknet's dog.jpg, whole and at odd sizes:
/// no byte differs.
final class YUVConversionTests: XCTestCase {
    private func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// Largest difference between `PlanarImage(pixels:)` of `pixels` and FFmpeg's rgb24 bytes.
    private func largestDifference(_ pixels: PixelBuffer, _ rgb24: [UInt8]) -> Int {
        let image = PlanarImage(pixels: pixels), area = pixels.width * pixels.height
        XCTAssertEqual(rgb24.count, 3 * area)
        var worst = 0
        for i in 0..<area {
            for c in 0..<3 {
                let ours = Int(PlanarImage.byte(image.pixels[c * area + i]))
                worst = max(worst, abs(ours - Int(rgb24[3 * i + c])))
            }
        }
        return worst
    }

    func testI420NV12AndNV21MatchFFmpegInBothRanges() throws {
        let dog = try TestPaths.require(TestPaths.sample("dog.jpg"))
        let directory = try temporaryDirectory("yuv")
        // Even sizes: for odd ones swscale leaves its direct converter for the general scaler,
        // which interpolates chroma (as it always does for NV12 input: the comparison there is
        // with the same samples as I420).
        for (width, height) in [(768, 576), (1280, 720), (34, 18), (102, 38)] {
            let yuv = directory.appendingPathComponent("frame-\(width).yuv")
            let nv12 = directory.appendingPathComponent("frame-\(width).nv12")
            let nv21 = directory.appendingPathComponent("frame-\(width).nv21")
            try FFmpeg.run(["-i", dog.path, "-vf", "scale=\(width):\(height)", "-pix_fmt", "yuv420p",
                                "-f", "rawvideo", yuv.path])
            try FFmpeg.run(["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-i", yuv.path,
                                "-pix_fmt", "nv12", "-f", "rawvideo", nv12.path])
            try FFmpeg.run(["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-i", yuv.path,
                                "-pix_fmt", "nv21", "-f", "rawvideo", nv21.path])
            let planes = try bytes(yuv), interleaved = try bytes(nv12), swapped = try bytes(nv21)
            XCTAssertNotEqual(interleaved, swapped)
            let cw = (width + 1) / 2, ch = (height + 1) / 2, area = width * height
            XCTAssertEqual(planes.count, area + 2 * cw * ch)
            for (range, inputFormat) in [(YUVRange.video, "yuv420p"), (.full, "yuvj420p")] {
                let rgb = directory.appendingPathComponent("frame-\(width)-\(inputFormat).rgb")
                try FFmpeg.run(["-f", "rawvideo", "-pix_fmt", inputFormat, "-s", "\(width)x\(height)", "-i", yuv.path,
                                    "-pix_fmt", "rgb24", "-f", "rawvideo", rgb.path])
                let reference = try bytes(rgb)
                let i420 = try PixelBuffer(format: .i420(range), width: width, height: height, planes: [
                    .init(bytes: Array(planes[0..<area]), bytesPerRow: width),
                    .init(bytes: Array(planes[area..<(area + cw * ch)]), bytesPerRow: cw),
                    .init(bytes: Array(planes[(area + cw * ch)...]), bytesPerRow: cw)])
                let semiPlanar = try PixelBuffer(format: .nv12(range), width: width, height: height, planes: [
                    .init(bytes: Array(interleaved[0..<area]), bytesPerRow: width),
                    .init(bytes: Array(interleaved[area...]), bytesPerRow: 2 * cw)])
                let android = try PixelBuffer(format: .nv21(range), width: width, height: height, planes: [
                    .init(bytes: Array(swapped[0..<area]), bytesPerRow: width),
                    .init(bytes: Array(swapped[area...]), bytesPerRow: 2 * cw)])
                let i420Difference = largestDifference(i420, reference)
                let nv12Difference = largestDifference(semiPlanar, reference)
                print("YUV \(width)x\(height) \(range): largest difference from swscale I420 \(i420Difference), NV12 \(nv12Difference)")
                XCTAssertLessThanOrEqual(i420Difference, 1, "I420 \(range) \(width)x\(height)")
                XCTAssertLessThanOrEqual(nv12Difference, 1, "NV12 \(range) \(width)x\(height)")
                // NV21 holds the same samples as NV12, Cr first: the same colours exactly.
                XCTAssertEqual(PlanarImage(pixels: android), PlanarImage(pixels: semiPlanar), "NV21 \(range) \(width)x\(height)")
                // The letterbox reads the same converted values.
                XCTAssertEqual(try i420.letterboxed(width: 416, height: 416).image,
                               try PlanarImage(pixels: i420).letterboxed(width: 416, height: 416).image)
                XCTAssertEqual(try semiPlanar.letterboxed(width: 416, height: 416).image,
                               try PlanarImage(pixels: i420).letterboxed(width: 416, height: 416).image)
            }
        }
    }

    func testPackedYUYVAndUYVYMatchFFmpegInBothRanges() throws {
        let dog = try TestPaths.require(TestPaths.sample("dog.jpg"))
        let directory = try temporaryDirectory("yuv")
        for (width, height) in [(768, 576), (34, 18), (102, 38)] {
            let source = directory.appendingPathComponent("frame-\(width).yuv422p")
            try FFmpeg.run(["-i", dog.path, "-vf", "scale=\(width):\(height)", "-pix_fmt", "yuv422p",
                                "-f", "rawvideo", source.path])
            var packed: [String: [UInt8]] = [:]
            for name in ["yuyv422", "uyvy422"] {
                let file = directory.appendingPathComponent("frame-\(width).\(name)")
                try FFmpeg.run(["-f", "rawvideo", "-pix_fmt", "yuv422p", "-s", "\(width)x\(height)", "-i", source.path,
                                    "-pix_fmt", name, "-f", "rawvideo", file.path])
                packed[name] = try bytes(file)
                XCTAssertEqual(packed[name]?.count, 2 * width * height)
            }
            XCTAssertNotEqual(packed["yuyv422"], packed["uyvy422"])
            for (range, inputFormat) in [(YUVRange.video, "yuv422p"), (.full, "yuvj422p")] {
                let rgb = directory.appendingPathComponent("frame-\(width)-\(inputFormat).rgb")
                try FFmpeg.run(["-f", "rawvideo", "-pix_fmt", inputFormat, "-s", "\(width)x\(height)", "-i", source.path,
                                    "-pix_fmt", "rgb24", "-f", "rawvideo", rgb.path])
                let reference = try bytes(rgb)
                let yuyv = try PixelBuffer(format: .yuyv(range), width: width, height: height, bytes: packed["yuyv422"]!)
                let uyvy = try PixelBuffer(format: .uyvy(range), width: width, height: height, bytes: packed["uyvy422"]!)
                let difference = largestDifference(yuyv, reference)
                print("YUV 4:2:2 \(width)x\(height) \(range): largest difference from swscale \(difference)")
                XCTAssertLessThanOrEqual(difference, 1, "YUYV \(range) \(width)x\(height)")
                XCTAssertEqual(PlanarImage(pixels: uyvy), PlanarImage(pixels: yuyv), "UYVY \(range) \(width)x\(height)")
                XCTAssertEqual(try yuyv.letterboxed(width: 416, height: 416).image,
                               try PlanarImage(pixels: yuyv).letterboxed(width: 416, height: 416).image)
            }
        }
    }

    func testPackedYUYVCropsAndRefusesToTurn() throws {
        // 6x2 YUYV with distinct chroma per pixel pair; a crop at (1, 1) sees the whole frame's
        // colours at the same places, and rows padded to 16 bytes are read as such.
        let width = 6, height = 2
        var bytes = [UInt8]()
        for y in 0..<height {
            for pair in 0..<3 {
                bytes += [UInt8(40 + 30 * pair + y), UInt8(60 + 50 * pair), UInt8(50 + 30 * pair + y), UInt8(200 - 40 * pair - 10 * y)]
            }
            bytes += [0, 0, 0, 0]
        }
        let frame = try PixelBuffer(format: .yuyv(.video), width: width, height: height, bytes: bytes, bytesPerRow: 16)
        let whole = PlanarImage(pixels: frame)
        XCTAssertNotEqual(whole[0, 0, 0], whole[0, 0, 2])
        let crop = PlanarImage(pixels: try frame.cropped(to: PixelRegion(x: 1, y: 1, width: 4, height: 1)))
        for x in 0..<4 {
            for c in 0..<3 { XCTAssertEqual(crop[c, 0, x], whole[c, 1, x + 1], "(\(x), 0)") }
        }
        XCTAssertThrowsError(try frame.turned(clockwise: 90)) {
            XCTAssertEqual($0 as? PixelBufferError, .unsupportedTurn(format: .yuyv(.video)))
        }
        XCTAssertThrowsError(try PixelBuffer(format: .uyvy(.full), width: 5, height: 2, bytes: [UInt8](repeating: 0, count: 22))) {
            XCTAssertEqual($0 as? PixelBufferError, .planeTooSmall(plane: 0, bytes: 22, needed: 24))
        }
        XCTAssertThrowsError(try whole.pixelBuffer(format: .yuyv(.video)))
    }

    func testOddCropsReadTheChromaSampleCoveringEachPixel() throws {
        // 6x4 I420 with distinct chroma per 2x2 block; a crop at (1, 1) must see the whole
        // frame's colours at the same places.
        let width = 6, height = 4
        let luma = (0..<(width * height)).map { UInt8(40 + 7 * $0) }
        let cb = (0..<6).map { UInt8(60 + 25 * $0) }, cr = (0..<6).map { UInt8(200 - 23 * $0) }
        let frame = try PixelBuffer(format: .i420(.video), width: width, height: height,
                                    planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: cb, bytesPerRow: 3),
                                             .init(bytes: cr, bytesPerRow: 3)])
        var nv = [UInt8]()
        for i in 0..<6 { nv += [cb[i], cr[i]] }
        let semiPlanar = try PixelBuffer(format: .nv12(.video), width: width, height: height,
                                         planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: nv, bytesPerRow: 6)])
        var vu = [UInt8]()
        for i in 0..<6 { vu += [cr[i], cb[i]] }
        let android = try PixelBuffer(format: .nv21(.video), width: width, height: height,
                                      planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: vu, bytesPerRow: 6)])
        let whole = PlanarImage(pixels: frame)
        XCTAssertEqual(PlanarImage(pixels: semiPlanar), whole)
        XCTAssertEqual(PlanarImage(pixels: android), whole)
        let region = PixelRegion(x: 1, y: 1, width: 4, height: 3)
        for buffer in [frame, semiPlanar, android] {
            let crop = PlanarImage(pixels: try buffer.cropped(to: region))
            for y in 0..<3 {
                for x in 0..<4 {
                    for c in 0..<3 { XCTAssertEqual(crop[c, y, x], whole[c, y + 1, x + 1], "\(buffer.format) (\(x), \(y))") }
                }
            }
        }
    }
}
