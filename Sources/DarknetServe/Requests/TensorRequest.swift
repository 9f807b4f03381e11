import Darknet
import Foundation

/// A Frigate ZMQ detector request: frame 1 a JSON header `{"shape": [...], "dtype": "uint8" |
/// "float32", "model_type": ...}`, frame 2 the tensor's raw bytes in C order (little-endian
/// floats), as `frigate/detectors/plugins/zmq_ipc.py` sends them.
///
/// The layout comes from the shape: the axis of length 3 is the channel axis, last (NHWC, `[1,
/// H, W, 3]` or `[H, W, 3]`) or first after the batch (NCHW, `[1, 3, H, W]` or `[3, H, W]`); a
/// shape that could be both (`[1, 3, H, 3]`) is read as NHWC, Frigate's default.
public struct TensorRequest: Sendable {
    /// How the tensor's axes are ordered.
    public enum Layout: String, Sendable { case nhwc, nchw }
    /// The element type (`dtype`).
    public enum ElementType: String, Sendable { case uint8, float32 }

    /// Bytes the JSON header may have.
    public static let maximumHeaderBytes = 4096

    public let width: Int
    public let height: Int
    public let layout: Layout
    public let elementType: ElementType
    /// The header's `model_type` (Frigate's model family, e.g. "yolo-generic"), if any.
    public let modelType: String?
    /// The tensor's bytes (frame 2).
    public let bytes: [UInt8]

    /// Reads the two frames of a request.
    /// - Parameters:
    ///   - frames: the message's frames: the JSON header, then the tensor's bytes.
    ///   - maxPixels: largest `width * height` taken.
    /// - Throws: `TensorError` naming the frame and field at fault.
    public init(frames: [[UInt8]], maxPixels: Int = 100_000_000) throws(TensorError) {
        guard frames.count == 2 else { throw .frameCount(frames.count) }
        let header = try Self.header(frames[0])
        guard let elementType = ElementType(rawValue: header.dtype) else { throw .unsupportedType(header.dtype) }
        modelType = header.modelType
        (layout, height, width) = try Self.imageAxes(header.shape)
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, area <= maxPixels, width <= 65_535, height <= 65_535 else { throw .unsupportedShape(header.shape) }
        let expected = area * 3 * (elementType == .uint8 ? 1 : 4)
        guard frames[1].count == expected else { throw .byteCount(expected: expected, actual: frames[1].count) }
        self.elementType = elementType
        bytes = frames[1]
    }

    /// The tensor as a planar RGB image with values in [0, 1]: bytes divided by 255 (as image
    /// files decode), floats divided by `floatRange`'s top.
    /// - Parameters:
    ///   - channelOrder: the order of the three channels in the tensor.
    ///   - floatRange: the range float elements lie in (0...1, or 0...255 for Frigate's
    ///     `float_denorm`); an element outside it is an error, not a clipped value.
    public func image(channelOrder: TensorChannelOrder, floatRange: TensorFloatRange) throws(TensorError) -> PlanarImage {
        let area = width * height
        var planes = [Float](repeating: 0, count: 3 * area)
        // Where channel c of pixel i lies, in elements, and the plane it goes to.
        let (pixelStride, channelStride) = layout == .nhwc ? (3, 1) : (1, area)
        let target = channelOrder == .rgb ? [0, 1, 2] : [2, 1, 0]
        switch elementType {
        case .uint8:
            ByteToFloat.table.withUnsafeBufferPointer { lut in
                planes.withUnsafeMutableBufferPointer { out in
                    bytes.withUnsafeBufferPointer { source in
                        for c in 0..<3 {
                            let plane = out.baseAddress! + target[c] * area
                            let first = c * channelStride
                            for i in 0..<area { plane[i] = lut[Int(source[first + i * pixelStride])] }
                        }
                    }
                }
            }
        case .float32:
            let top = floatRange.top
            var bad: (element: Int, value: Float)?
            planes.withUnsafeMutableBufferPointer { out in
                bytes.withUnsafeBytes { raw in
                    for c in 0..<3 where bad == nil {
                        let plane = out.baseAddress! + target[c] * area
                        for i in 0..<area {
                            let element = c * channelStride + i * pixelStride
                            let value = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * element, as: UInt32.self)))
                            guard value >= 0, value <= top else { bad = (element, value); break }
                            plane[i] = top == 1 ? value : Float(Double(value) / Double(top))
                        }
                    }
                }
            }
            if let bad { throw .valueOutOfRange(element: bad.element, value: bad.value, range: 0...top) }
        }
        return PlanarImage(validatedWidth: width, height: height, channels: 3, pixels: planes)
    }

    /// The header frame's fields (unknown ones are ignored). `shape` is read as numbers and
    /// checked to be integers here: Foundation's decoder calls a fraction where an `Int` is
    /// expected "not valid JSON".
    private struct Header: Decodable {
        let shape: [Double]
        let dtype: String
        let model_type: String?
    }

    /// The header frame, decoded: its shape, dtype and model type.
    private static func header(_ frame: [UInt8]) throws(TensorError) -> (shape: [Int], dtype: String, modelType: String?) {
        guard frame.count <= maximumHeaderBytes else {
            throw .headerNotJSON(reason: "\(frame.count) bytes, more than \(maximumHeaderBytes)")
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(frame))
        } catch let error as DecodingError {
            throw headerError(error, bytes: frame.count)
        } catch {
            throw .headerNotJSON(reason: "not a JSON object (\(frame.count) bytes)")
        }
        var shape: [Int] = []
        for value in header.shape {
            guard value == value.rounded(), abs(value) < 1e15 else { throw .headerField("shape", expected: "a list of integers") }
            shape.append(Int(value))
        }
        return (shape, header.dtype, header.model_type)
    }

    /// The field a decoding error is about, or "not a JSON object" when it is about the whole.
    private static func headerError(_ error: DecodingError, bytes: Int) -> TensorError {
        let field: String?
        switch error {
        case .keyNotFound(let key, _): field = key.stringValue
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            field = context.codingPath.first?.stringValue
        @unknown default: field = nil
        }
        switch field {
        case "shape"?: return .headerField("shape", expected: "a list of integers")
        case "dtype"?: return .headerField("dtype", expected: "\"uint8\" or \"float32\"")
        case let other?: return .headerField(other, expected: "a string")
        case nil: return .headerNotJSON(reason: "not a JSON object (\(bytes) bytes)")
        }
    }

    /// The layout, height and width of an image shape.
    private static func imageAxes(_ shape: [Int]) throws(TensorError) -> (Layout, Int, Int) {
        let axes: (Layout, Int, Int)?
        switch shape.count {
        case 4 where shape[0] == 1 && shape[3] == 3: axes = (.nhwc, shape[1], shape[2])
        case 4 where shape[0] == 1 && shape[1] == 3: axes = (.nchw, shape[2], shape[3])
        case 3 where shape[2] == 3: axes = (.nhwc, shape[0], shape[1])
        case 3 where shape[0] == 3: axes = (.nchw, shape[1], shape[2])
        default: axes = nil
        }
        guard let axes, axes.1 > 0, axes.2 > 0, shape.allSatisfy({ $0 >= 0 }) else { throw .unsupportedShape(shape) }
        return axes
    }
}

/// The order of a tensor's three channels (Frigate's `input_pixel_format`: `rgb` or `bgr`).
public enum TensorChannelOrder: String, Sendable, CaseIterable {
    case rgb, bgr
}

/// The range a float tensor's elements lie in: Frigate's `input_dtype: float` (0 to 1) or
/// `float_denorm` (0 to 255).
public enum TensorFloatRange: String, Sendable, CaseIterable {
    case unit = "1"
    case byte = "255"

    /// The largest element value.
    var top: Float { self == .unit ? 1 : 255 }
}
