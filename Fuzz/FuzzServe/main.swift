#if FUZZ_REPLAY
import FuzzReplay
#endif
import Darknet
import DarknetServe
import Foundation

// libFuzzer target: what `swift-darknet serve` parses from the network. An even first byte: a
// DeepStack form (the rest is `Content-Type` line, `\n`, then the body) through
// `DetectionRequest`; an odd one: a Frigate ZMQ request (then a frame count, each frame but the
// last prefixed by its little-endian 16-bit length, the last taking the rest) through
// `TensorRequest` and, when it is accepted, its conversion to an image. Anything but a typed error
// or a consistent result is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    guard let mode = bytes.first else { return 0 }
    if mode & 1 == 0 {
        form(Array(bytes.dropFirst()))
    } else {
        tensor(Array(bytes.dropFirst()))
    }
    return 0
}

func form(_ input: [UInt8]) {
    let newline = input.firstIndex(of: UInt8(ascii: "\n")) ?? input.count
    let contentType = newline == 0 ? nil : String(decoding: input[..<newline], as: UTF8.self)
    let body = Array(input.dropFirst(newline + 1))
    do {
        let request = try DetectionRequest(contentType: contentType, body: body)
        check(!request.image.isEmpty, "an empty image was accepted")
        check(request.image.startIndex >= 0 && request.image.endIndex <= body.count, "the image lies outside the body")
        check(Array(request.image) == Array(body[request.image.startIndex..<request.image.endIndex]), "the image is not the body's bytes")
        if let confidence = request.minimumConfidence { check((0...1).contains(confidence), "min_confidence \(confidence) passed") }
    } catch {
        check(!error.description.isEmpty, "an error without a message")
        if case .malformedBody(let offset, _) = error { check(offset >= 0 && offset <= body.count, "an offset outside the body: \(offset)") }
    }
}

func tensor(_ input: [UInt8]) {
    guard let count = input.first else { return }
    var rest = input.dropFirst()
    var frames: [[UInt8]] = []
    for index in 0..<Int(count % 4) {
        if index == Int(count % 4) - 1 {
            frames.append(Array(rest))
        } else {
            guard rest.count >= 2 else { break }
            let length = Int(rest[rest.startIndex]) | Int(rest[rest.startIndex + 1]) << 8
            rest = rest.dropFirst(2)
            frames.append(Array(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
    }
    do {
        let request = try TensorRequest(frames: frames, maxPixels: 1 << 16)
        check(request.width > 0 && request.height > 0 && request.width * request.height <= 1 << 16, "a size outside the limit passed")
        let elementSize = request.elementType == .uint8 ? 1 : 4
        check(request.bytes.count == request.width * request.height * 3 * elementSize, "a tensor of the wrong size passed")
        for order in TensorChannelOrder.allCases {
            for range in TensorFloatRange.allCases {
                do {
                    let image = try request.image(channelOrder: order, floatRange: range)
                    check(image.width == request.width && image.height == request.height && image.channels == 3, "the image's size differs")
                    check(image.pixels.allSatisfy { $0 >= 0 && $0 <= 1 }, "a value outside [0, 1]")
                } catch {
                    check(request.elementType == .float32, "uint8 bytes refused: \(error)")
                }
            }
        }
    } catch {
        check(!error.description.isEmpty, "an error without a message")
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

#if FUZZ_REPLAY
// A declaration, not a statement: libFuzzer builds parse this file as a library.
let replayed: Void = replayInputs("FuzzServe", fuzz)
#endif
