import Darknet

/// Why a ZMQ detector request (Frigate's two frames: a JSON header and a raw tensor) was
/// refused. Each names the frame, the header field or the element at fault.
public enum TensorError: DarknetError, Equatable, Sendable {
    /// The request has another number of frames than the two (header, tensor) it needs.
    case frameCount(Int)
    /// The header frame is not a JSON object (or is longer than `TensorRequest.maximumHeaderBytes`).
    case headerNotJSON(reason: String)
    /// A header field is missing or has the wrong type or value.
    case headerField(String, expected: String)
    /// `dtype` is not one the server reads.
    case unsupportedType(String)
    /// `shape` is not an image: `[1, H, W, 3]`, `[H, W, 3]`, `[1, 3, H, W]` or `[3, H, W]`.
    case unsupportedShape([Int])
    /// The tensor frame's size differs from what `shape` and `dtype` need.
    case byteCount(expected: Int, actual: Int)
    /// A float element is not finite or lies outside the range the server was told to expect.
    case valueOutOfRange(element: Int, value: Float, range: ClosedRange<Float>)

    public var description: String {
        switch self {
        case .frameCount(let count):
            "the request has \(count) frame(s); expected 2: a JSON header and the tensor's bytes"
        case .headerNotJSON(let reason):
            "frame 1 (header): \(reason); expected a JSON object with \"shape\" and \"dtype\""
        case .headerField(let name, let expected):
            "frame 1 (header): \"\(name)\": expected \(expected)"
        case .unsupportedType(let dtype):
            "frame 1 (header): \"dtype\" '\(dtype)' is not read; expected \"uint8\" or \"float32\""
        case .unsupportedShape(let shape):
            "frame 1 (header): \"shape\" \(shape) is not a 3-channel image; expected [1, H, W, 3] (NHWC), [1, 3, H, W] (NCHW), [H, W, 3] or [3, H, W]"
        case .byteCount(let expected, let actual):
            "frame 2 (tensor): \(actual) bytes; the header's shape and dtype need \(expected)"
        case .valueOutOfRange(let element, let value, let range):
            "frame 2 (tensor): element \(element) is \(value), outside \(range.lowerBound)...\(range.upperBound)"
                + (range.upperBound == 1 && value.isFinite && value > 1 && value <= 255
                   ? " (0-255 values need the server's --zmq-float-range 255)" : "")
        }
    }
}
