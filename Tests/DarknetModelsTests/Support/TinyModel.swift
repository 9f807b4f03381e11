import Foundation

/// A small YOLO-style network written by the tests: a cfg and seeded random weights big enough
/// (about 2.4 MB) that a transfer can be cut, stalled or killed half-way.
enum TinyModel {
    static let cfg = """
        [net]
        width=32
        height=32
        channels=3

        [convolutional]
        filters=256
        size=3
        stride=1
        pad=1
        activation=leaky

        [convolutional]
        filters=256
        size=3
        stride=1
        pad=1
        activation=leaky

        [convolutional]
        filters=6
        size=1
        stride=1
        pad=1
        activation=linear

        [yolo]
        mask=0
        anchors=10,14
        classes=1
        num=1

        """
    static let names = "thing\n"

    /// Parameters per convolution in file order: biases, then weights.
    static let layers: [(filters: Int, inputs: Int)] = [(256, 3 * 9), (256, 256 * 9), (6, 256)]

    static var cfgBytes: [UInt8] { Array(cfg.utf8) }
    static var namesBytes: [UInt8] { Array(names.utf8) }

    /// The weights file: Darknet header (0.2.0, 64-bit seen) and values from `seed`.
    static func weights(seed: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        for value: Int32 in [0, 2, 0] { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        withUnsafeBytes(of: UInt64(0).littleEndian) { bytes += $0 }
        var state = seed
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (Float(state >> 40) / Float(1 << 24) - 0.5) * 0.1
        }
        var values: [Float] = []
        for layer in layers {
            for _ in 0..<(layer.filters + layer.filters * layer.inputs) { values.append(next()) }
        }
        values.withUnsafeBytes { bytes += $0 }  // little-endian on every platform Swift runs on here
        return bytes
    }
}
