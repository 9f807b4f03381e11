@testable import Darknet

/// Builds `.weights` bytes for a spec with seeded random values, in Darknet's layout.
struct WeightsBuilder {
    var major: Int32 = 0
    var minor: Int32 = 2
    var revision: Int32 = 0
    var seen: UInt64 = 12345

    func header() -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [major, minor, revision] { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        if WeightsHeader.hasWideSeen(major: major, minor: minor) {
            withUnsafeBytes(of: seen.littleEndian) { bytes += $0 }
        } else {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: seen).littleEndian) { bytes += $0 }
        }
        return bytes
    }

    /// The per-layer parameter arrays (biases, [scales, mean, variance], weights) in file order.
    static func layerParameters(spec: NetworkSpec, seed: UInt64) throws -> [[[Float]]] {
        let plan = try NetworkPlan(spec: spec)
        var generator = SplitMix64(seed: seed)
        var layers: [[[Float]]] = []
        for layer in plan.layers {
            guard case .convolutional(let conv) = layer.spec.kind else { continue }
            let kernelArea = layer.inputShape.channels / conv.groups * conv.size * conv.size
            let bound = (3 / Float(kernelArea)).squareRoot()
            func values(_ count: Int, _ range: ClosedRange<Float>) -> [Float] {
                (0..<count).map { _ in generator.nextFloat(in: range) }
            }
            var arrays = [values(conv.filters, -0.5...0.5)]
            if conv.batchNormalize {
                arrays += [values(conv.filters, 0.5...1.5), values(conv.filters, -0.2...0.2), values(conv.filters, 0.5...2)]
            }
            arrays.append(values(conv.filters * kernelArea, -bound...bound))
            layers.append(arrays)
        }
        return layers
    }

    func bytes(spec: NetworkSpec, seed: UInt64) throws -> [UInt8] {
        var bytes = header()
        for layer in try Self.layerParameters(spec: spec, seed: seed) {
            for array in layer { bytes += Self.floatBytes(array) }
        }
        return bytes
    }

    static func floatBytes(_ values: [Float]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        return bytes
    }
}
