import Darknet

/// Bounds-checked little-endian reads over a file's bytes, for the formats decoded in Swift
/// (BMP, Netpbm). A read past the end throws `ImageFileError.corrupt` naming the offset and what
/// was being read.
struct ByteReader {
    let bytes: [UInt8]
    let path: String
    let format: String

    func require(_ count: Int, at offset: Int, for what: @autoclosure () -> String) throws(ImageFileError) {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw .corrupt(path: path, reason: "\(format) ends at byte \(bytes.count), inside \(what()) (bytes \(offset)..<\(offset + count))")
        }
    }

    func u8(_ offset: Int, _ what: String) throws(ImageFileError) -> Int {
        try require(1, at: offset, for: what)
        return Int(bytes[offset])
    }

    func u16(_ offset: Int, _ what: String) throws(ImageFileError) -> Int {
        try require(2, at: offset, for: what)
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    func u32(_ offset: Int, _ what: String) throws(ImageFileError) -> Int {
        try require(4, at: offset, for: what)
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    func i32(_ offset: Int, _ what: String) throws(ImageFileError) -> Int {
        Int(Int32(truncatingIfNeeded: try u32(offset, what)))
    }

    /// A `.corrupt` error for this file.
    func damaged(_ reason: String) -> ImageFileError {
        .corrupt(path: path, reason: "\(format): \(reason)")
    }

    /// An `.unsupportedVariant` error for this file.
    func unsupported(_ reason: String) -> ImageFileError {
        .unsupportedVariant(path: path, reason: "\(format): \(reason)")
    }
}
