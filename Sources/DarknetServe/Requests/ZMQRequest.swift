import Foundation

/// One message from a Frigate ZMQ detector (`frigate/detectors/plugins/zmq_ipc.py`): the model
/// handshake it sends first, or a tensor to detect in.
///
/// - `[{"model_request": true, "model_name": NAME}]`: is NAME (the file name of Frigate's
///   `model.path`) served here, and loaded?
/// - `[{"model_data": true, "model_name": NAME}, BYTES]`: the file itself, to save and load.
/// - `[{"shape", "dtype", "model_type"}, TENSOR]`: see `TensorRequest`.
///
/// ```swift
/// switch try ZMQRequest(frames: frames, count: frames.count, maxPixels: 50_000_000) {
/// case .modelRequest(let name): print("is \(name) served?")
/// case .modelData(let name, let bytes): print("\(name): \(bytes.count) bytes to load")
/// case .tensor(let tensor): print("\(tensor.width) x \(tensor.height)")
/// }
/// ```
public enum ZMQRequest: Sendable {
    case modelRequest(name: String)
    case modelData(name: String, bytes: [UInt8])
    case tensor(TensorRequest)

    /// Reads a message's frames (the routing envelope already removed).
    /// - Parameters:
    ///   - frames: the frames kept.
    ///   - count: how many frames the message had (more than were kept, for a long one).
    ///   - maxPixels: largest `width * height` of a tensor.
    /// - Throws: `TensorError` for a tensor request, `ModelTransferError` for a handshake.
    public init(frames: [[UInt8]], count: Int, maxPixels: Int) throws {
        if let handshake = Self.handshake(frames.first) {
            let name = try Self.checkedName(handshake.model_name)
            if handshake.model_data == true {
                guard count == 2, frames.count == 2 else { throw ModelTransferError.noBytes }
                self = .modelData(name: name, bytes: frames[1])
            } else {
                self = .modelRequest(name: name)
            }
            return
        }
        guard count == 2 else { throw TensorError.frameCount(count) }
        self = .tensor(try TensorRequest(frames: frames, maxPixels: maxPixels))
    }

    /// The handshake fields of a header frame.
    private struct Handshake: Decodable {
        let model_request: Bool?
        let model_data: Bool?
        let model_name: String?
    }

    /// The header frame as a handshake, if it is a JSON object with `model_request` or `model_data`.
    private static func handshake(_ frame: [UInt8]?) -> Handshake? {
        guard let frame, frame.count <= TensorRequest.maximumHeaderBytes, frame.first == UInt8(ascii: "{"),
              let header = try? JSONDecoder().decode(Handshake.self, from: Data(frame)),
              header.model_request != nil || header.model_data != nil else { return nil }
        return header
    }

    /// `name` if it is a plain file name: printable ASCII (spaces included) without `/` or `\`,
    /// no leading dot or space, at most 128 characters.
    private static func checkedName(_ name: String?) throws(ModelTransferError) -> String {
        guard let name, !name.isEmpty, name.count <= 128, !name.hasPrefix("."), !name.hasPrefix(" "),
              name.unicodeScalars.allSatisfy({ (0x20..<0x7f).contains($0.value) && $0 != "/" && $0 != "\\" })
        else { throw .name(name ?? "") }
        return name
    }
}
