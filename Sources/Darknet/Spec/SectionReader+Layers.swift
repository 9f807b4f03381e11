/// Key readings several layer types share.
extension SectionReader {
    /// Darknet's rule: a negative index counts back from the current layer (`index`).
    func source(_ value: Int, at index: Int, key: String) throws(CfgError) -> Int {
        let absolute = value < 0 ? index + value : value
        guard absolute >= 0, absolute < index else {
            throw error(key, .invalidValue(value: String(value),
                                           expected: "an earlier layer (relative -1...-\(index) or absolute 0..<\(index)) for layer \(index)"))
        }
        return absolute
    }

    /// A required list of earlier layers (`layers=` of a route, `from=` of a shortcut), resolved.
    mutating func sources(_ key: String, at index: Int) throws(CfgError) -> [Int] {
        guard let written = try intList(key) else { throw error(key, .missingKey) }
        var resolved: [Int] = []
        for value in written { resolved.append(try source(value, at: index, key: key)) }
        return resolved
    }

    /// `from=N`: exactly one earlier layer.
    mutating func singleSource(at index: Int) throws(CfgError) -> Int {
        guard let written = try intList("from") else { throw error("from", .missingKey) }
        guard written.count == 1 else {
            throw error("from", .invalidValue(value: entry("from")!.value, expected: "one layer index"))
        }
        return try source(written[0], at: index, key: "from")
    }

    /// `stride_x` / `stride_y`, each defaulting to `stride` (which defaults to 1).
    mutating func strides() throws(CfgError) -> (x: Int, y: Int) {
        let stride = try int("stride", default: 1, minimum: 1)
        return (try int("stride_x", default: stride, minimum: 1), try int("stride_y", default: stride, minimum: 1))
    }

    /// The activation of `[scale_channels]` and `[sam]`, which AlexeyAB applies with its plain
    /// `activate_array`. That has no case for relu6, swish, mish or hard_mish (it writes 0):
    /// those are refused rather than given a meaning AlexeyAB's Darknet does not have.
    mutating func multiplyActivation(section: String) throws(CfgError) -> Activation {
        let activation = try self.activation("activation", default: .linear)
        switch activation {
        case .relu6, .swish, .mish, .hardMish:
            throw error("activation", .unsupported("activation=\(activation.rawValue) in [\(section)] (AlexeyAB's Darknet does not apply it there)"))
        default:
            return activation
        }
    }
}
