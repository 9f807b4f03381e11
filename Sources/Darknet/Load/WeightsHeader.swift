/// The version header at the start of every Darknet `.weights` file.
public struct WeightsHeader: Sendable, Equatable {
    public let major: Int32
    public let minor: Int32
    public let revision: Int32
    /// Images seen in training: 64-bit when `major * 10 + minor >= 2`, else 32-bit.
    public let seen: UInt64
    /// Header size in bytes (16 or 20).
    public let byteCount: Int

    /// Whether `[connected]` weights are stored transposed (Darknet: major or minor > 1000).
    public var transposed: Bool { major > 1000 || minor > 1000 }

    /// Whether `seen` is stored as 64 bits, Darknet's rule.
    static func hasWideSeen(major: Int32, minor: Int32) -> Bool {
        Int(major) * 10 + Int(minor) >= 2 && major < 1000 && minor < 1000
    }
}
