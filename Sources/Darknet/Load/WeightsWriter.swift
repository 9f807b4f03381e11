/// Writes `.weights` bytes in Darknet's layout for a plan: the version header, then every layer's
/// stored arrays (`LayerPlan.storedParameters`) in file order. Tests, fixtures and the fuzzer
/// make their files with it, and random networks draw their parameters with it, so the layout
/// and the random values exist once.
@_spi(Testing) public struct WeightsWriter: Sendable {
    public var major: Int32
    public var minor: Int32
    public var revision: Int32
    public var seen: UInt64

    public init(major: Int32 = 0, minor: Int32 = 2, revision: Int32 = 0, seen: UInt64 = 12345) {
        self.major = major
        self.minor = minor
        self.revision = revision
        self.seen = seen
    }

    /// The header: major, minor, revision, then `seen` in 64 bits (32 before version 0.2).
    public func header() -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [major, minor, revision] { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        if WeightsHeader.hasWideSeen(major: major, minor: minor) {
            withUnsafeBytes(of: seen.littleEndian) { bytes += $0 }
        } else {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: seen).littleEndian) { bytes += $0 }
        }
        return bytes
    }

    /// One array the file stores: its layer, its name (`biases`, `weights`, `rolling_mean`, ...),
    /// its float count and its byte offset after a header of `headerBytes`.
    public struct StoredArray: Sendable, Equatable {
        public let layer: Int
        public let name: String
        public let count: Int
        public let offset: Int
    }

    /// Every stored array of `plan`, in file order.
    public static func layout(of plan: NetworkPlan, headerBytes: Int = 20) -> [StoredArray] {
        var offset = headerBytes
        var arrays: [StoredArray] = []
        for layer in plan.layers {
            for (name, count) in layer.storedParameters {
                arrays.append(StoredArray(layer: layer.index, name: name, count: count, offset: offset))
                offset += 4 * count
            }
        }
        return arrays
    }

    /// Floats the file stores for `plan` after its header.
    public static func storedFloatCount(_ plan: NetworkPlan) -> Int {
        plan.layers.reduce(0) { total, layer in layer.storedParameters.reduce(total) { $0 + $1.count } }
    }

    /// The header followed by `values(array)` for every stored array (each `array.count` floats).
    public func bytes(for plan: NetworkPlan, values: (StoredArray) -> [Float]) -> [UInt8] {
        var bytes = header()
        for array in Self.layout(of: plan, headerBytes: bytes.count) {
            let floats = values(array)
            precondition(floats.count == array.count, "\(array.name) of layer \(array.layer) needs \(array.count) floats")
            bytes += Self.floatBytes(floats)
        }
        return bytes
    }

    /// A whole file of seeded random parameters (`randomArrays`).
    public func randomBytes(for plan: NetworkPlan, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return bytes(for: plan) { array in Self.randomValues(array.name, count: array.count, layer: plan.layers[array.layer],
                                                             generator: &generator) }
    }

    /// `randomBytes` for a parsed cfg, planned with the default options.
    public func randomBytes(for spec: NetworkSpec, seed: UInt64) throws -> [UInt8] {
        randomBytes(for: try NetworkPlan(spec: spec), seed: seed)
    }

    /// The arrays `randomBytes` writes, by layer index (empty for layers without parameters).
    public static func randomArrays(for plan: NetworkPlan, seed: UInt64) -> [[[Float]]] {
        var generator = SplitMix64(seed: seed)
        return plan.layers.map { layer in randomArrays(for: layer, generator: &generator) }
    }

    /// One layer's stored arrays, drawn from `generator` in file order.
    static func randomArrays(for layer: LayerPlan, generator: inout SplitMix64) -> [[Float]] {
        layer.storedParameters.map { randomValues($0.name, count: $0.count, layer: layer, generator: &generator) }
    }

    /// Values of a plausible trained network: weights uniform in `±sqrt(3 / fan-in)` (variance
    /// `1 / fan-in`), biases in ±0.5, batch-norm scales in 0.5...1.5, means in ±0.2, variances in 0.5...2.
    static func randomValues(_ name: String, count: Int, layer: LayerPlan, generator: inout SplitMix64) -> [Float] {
        let bound = (3 / Float(max(1, count / max(1, layer.outputShape.channels)))).squareRoot()
        // Sub-layers' arrays carry a prefix (`input_layer.weights`).
        let kind = name.split(separator: ".").last.map(String.init) ?? name
        let range: ClosedRange<Float> = switch kind {
        case "weights": -bound...bound
        case "scales": 0.5...1.5
        case "rolling_mean": -0.2...0.2
        case "rolling_variance": 0.5...2
        default: -0.5...0.5
        }
        return (0..<count).map { _ in generator.nextFloat(in: range) }
    }

    /// `values` as little-endian float32 bytes.
    public static func floatBytes(_ values: [Float]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: values.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            for (i, value) in values.enumerated() {
                raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
            }
        }
        return bytes
    }
}
