import Darknet

/// The reply to a Frigate ZMQ detector request: 20 rows of `[class index, score, y_min, x_min,
/// y_max, x_max]` as little-endian float32 (480 bytes), box edges as fractions of the tensor's
/// height and width, highest score first, rows after the last detection zero.
struct FrigateDetections: Sendable, Equatable {
    static let rows = 20
    static let columns = 6
    /// The JSON header frame sent before the values.
    static let header = Array(#"{"shape": [20, 6], "dtype": "float32"}"#.utf8)

    /// `rows * columns` values, row after row.
    let values: [Float]

    /// The first 20 of `detections` (already in confidence order) in an image of `width x
    /// height`; edges are Darknet's pixel rectangle divided by the size, so a row times the size
    /// gives back `detect --json`'s box.
    init(_ detections: [Detection], width: Int, height: Int) {
        var values = [Float](repeating: 0, count: Self.rows * Self.columns)
        for (row, d) in detections.prefix(Self.rows).enumerated() {
            let w = Float(width), h = Float(height)
            values.replaceSubrange(row * Self.columns..<(row + 1) * Self.columns, with: [
                Float(d.classIndex), d.confidence,
                Float(d.rect.top) / h, Float(d.rect.left) / w, Float(d.rect.bottom) / h, Float(d.rect.right) / w,
            ])
        }
        self.values = values
    }

    /// The values frame: 480 bytes, little-endian float32.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }
}
