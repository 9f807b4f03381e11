import Foundation

/// Reads a raw float32 little-endian file (the reference dumps of Darknet's pixels and layers),
/// throwing when its size is not a whole number of values.
public func readFloatFile(_ url: URL) throws -> [Float] {
    let data = try Data(contentsOf: url)
    guard data.count % 4 == 0 else { throw NotFloat32File(path: url.path, bytes: data.count) }
    return data.withUnsafeBytes { raw in
        (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
    }
}

public struct NotFloat32File: Error, CustomStringConvertible {
    public let path: String
    public let bytes: Int
    public var description: String { "\(path) is \(bytes) bytes, not a whole number of float32 values" }
}
