#if FUZZ_REPLAY
import FuzzReplay
#endif
import Darknet
import DarknetVideo

// libFuzzer target: one input is a whole video file (any container libavformat probes: MP4,
// MKV, AVI, MPEG-TS, GIF, ...) read from memory with a 1 megapixel frame limit and no access to
// other files or URLs. Opening and decoding must either fail with a `VideoError` or give frames
// of positive size within the limit, numbered 0, 1, 2... (presentation times are Durations,
// finite by type). At most 32 frames per input; each is letterboxed into a small network input.

let maxPixels = 1 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    let options = VideoReaderOptions(timeout: 5, decoderThreads: 1, maxPixels: maxPixels)
    guard let reader = try? VideoReader(data: bytes, name: "fuzz.bin", options: options) else { return 0 }
    check(reader.width > 0 && reader.height > 0 && reader.width * reader.height <= maxPixels,
          "opened \(reader.width)x\(reader.height)")
    var expected = 0
    do {
        while expected < 32, let frame = try reader.nextFrame() {
            check(frame.index == expected, "frame \(frame.index), expected \(expected)")
            let pixels = frame.pixels
            check(pixels.width > 0 && pixels.height > 0 && pixels.width * pixels.height <= maxPixels,
                  "frame of \(pixels.width)x\(pixels.height)")
            var input = [Float](repeating: -1, count: 3 * 16 * 12)
            let geometry = try input.withUnsafeMutableBufferPointer { buffer in
                try pixels.letterbox(into: buffer, width: 16, height: 12, channels: 3)
            }
            _ = geometry
            check(input.allSatisfy { $0 >= 0 && $0 <= 1 }, "letterboxed value outside [0, 1]")
            expected += 1
        }
    } catch let error as VideoError {
        check(error.description.contains("fuzz.bin"), "error without the source name: \(error)")
    } catch {
        fatalError("not a VideoError: \(error)")
    }
    return 0
}

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}

#if FUZZ_REPLAY
// A declaration, not a statement: libFuzzer builds parse this file as a library.
let replayed: Void = replayInputs("FuzzVideo", fuzz)
#endif
