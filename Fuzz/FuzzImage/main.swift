#if FUZZ_REPLAY
import FuzzReplay
#endif
import Darknet
import DarknetImage

// libFuzzer target: one input is an image file (JPEG, PNG, BMP, TIFF, WebP, Netpbm, HEIC or
// AVIF, sniffed), decoded with a 1 megapixel limit. A decode must fail with an `ImageFileError` or
// give `width * height * 3` values in [0, 1]; a decoded image is letterboxed, and a small one
// must survive a PNG round trip exactly.

let maxPixels = 1 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    let image: PlanarImage
    do {
        image = try PlanarImage(data: bytes, maxPixels: maxPixels)
    } catch {
        if case .tooLarge(_, let width, let height, _) = error {
            let (area, overflow) = width.multipliedReportingOverflow(by: height)
            check(overflow || area > maxPixels || width > 65_535 || height > 65_535, "refused \(width)x\(height) under the limit")
        }
        return 0
    }
    check(image.channels == 3 && image.width * image.height <= maxPixels, "decoded \(image.width)x\(image.height)x\(image.channels)")
    check(image.pixels.count == image.width * image.height * 3, "pixel count")
    check(image.pixels.allSatisfy { $0 >= 0 && $0 <= 1 }, "a value outside [0, 1]")
    do {
        let (boxed, _) = try image.letterboxed(width: 16, height: 12)
        check(boxed.pixels.count == 16 * 12 * 3, "letterbox size")
        if image.width * image.height <= 4096 {
            check(try PlanarImage(data: try image.pngData()) == image, "PNG round trip changed the pixels")
        }
    } catch {
        fatalError("a decoded image failed later: \(error)")
    }
    return 0
}

func check(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String) {
    do {
        if try !condition() { fatalError(message()) }
    } catch {
        fatalError("\(message()): \(error)")
    }
}

#if FUZZ_REPLAY
// A declaration, not a statement: libFuzzer builds parse this file as a library.
let replayed: Void = replayInputs("FuzzImage", fuzz)
#endif
