/// A `multipart/form-data` body as browsers and `requests` write it (the serving tests' DeepStack
/// forms, parsed in the unit tier and sent to servers in the other).
public struct MultipartBody {
    public init() {}

    public let boundary = "----swiftdarknet-test-7f3a9c"
    public private(set) var bytes: [UInt8] = []

    public mutating func file(_ name: String, filename: String = "image.jpg", contentType: String = "image/jpeg", _ data: [UInt8]) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        bytes += data + Array("\r\n".utf8)
    }

    public mutating func field(_ name: String, _ value: String) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    /// The body with its closing delimiter.
    public var finished: [UInt8] { bytes + Array("--\(boundary)--\r\n".utf8) }
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }
}
