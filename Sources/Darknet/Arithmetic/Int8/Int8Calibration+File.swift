import Foundation

extension Int8Calibration {
    /// Reads a sidecar `write(to:)` wrote and checks it fits `spec`: the same cfg file name,
    /// input size and convolution input shapes.
    /// - Throws: `Int8CalibrationError.unreadable` or `.mismatch` (naming `url`), `FileError`,
    ///   or the `PlanError` of planning `spec`.
    public init(contentsOf url: URL, for spec: NetworkSpec) throws {
        let bytes = try readFile(url)
        let file: Sidecar
        do {
            file = try JSONDecoder().decode(Sidecar.self, from: Data(bytes))
        } catch {
            throw Int8CalibrationError.unreadable(file: url.path, reason: Self.describe(error))
        }
        guard file.format == Self.formatName else {
            throw Int8CalibrationError.unreadable(file: url.path, reason: "format \"\(file.format)\", expected \"\(Self.formatName)\"")
        }
        guard file.version == Self.formatVersion else {
            throw Int8CalibrationError.unreadable(file: url.path, reason: "format version \(file.version), this library reads \(Self.formatVersion)")
        }
        var layers: [Layer] = []
        for entry in file.layers {
            guard entry.scale > 0, entry.scale.isFinite, (0...255).contains(entry.zeroPoint),
                  entry.minimum.isFinite, entry.maximum.isFinite else {
                throw Int8CalibrationError.unreadable(file: url.path, reason: "layer \(entry.layer): scale \(entry.scale), zero point \(entry.zeroPoint) (need scale > 0, zero point 0...255)")
            }
            layers.append(Layer(layer: entry.layer, input: entry.input.shape, minimum: entry.minimum, maximum: entry.maximum,
                                scale: entry.scale, zeroPoint: entry.zeroPoint))
        }
        var weights: WeightsFingerprint?
        if let recorded = file.weights {
            guard recorded.bytes >= 0, recorded.sample.count == 16, let sample = UInt64(recorded.sample, radix: 16) else {
                throw Int8CalibrationError.unreadable(file: url.path, reason: "weights: bytes \(recorded.bytes), sample \"\(recorded.sample)\" (need bytes >= 0, 16 hex digits)")
            }
            weights = WeightsFingerprint(bytes: recorded.bytes, sample: sample)
        }
        self.init(cfg: file.cfg, inputShape: file.input.shape, imageCount: file.images, layers: layers, weights: weights)
        let cfgName = URL(fileURLWithPath: spec.file).lastPathComponent
        guard cfg == cfgName else {
            throw Int8CalibrationError.mismatch(file: url.path, reason: "made for \(cfg), not \(cfgName)")
        }
        if let reason = mismatch(with: try NetworkPlan(spec: spec)) {
            throw Int8CalibrationError.mismatch(file: url.path, reason: reason)
        }
    }

    /// The sidecar's bytes (see the type's documentation for the format).
    public func sidecarData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(Sidecar(
            format: Self.formatName, version: Self.formatVersion, cfg: cfg, input: Shape(inputShape), images: imageCount,
            method: "minmax", weights: weights.map { Weights(bytes: $0.bytes, sample: $0.hexSample) },
            layers: layers.map { Entry(layer: $0.layer, input: Shape($0.input), minimum: $0.minimum, maximum: $0.maximum,
                                       scale: $0.scale, zeroPoint: $0.zeroPoint) }))
    }

    /// Writes the sidecar to `url`.
    /// - Throws: `FileError` naming `url`.
    public func write(to url: URL) throws {
        do {
            try sidecarData().write(to: url, options: .atomic)
        } catch {
            throw FileError(path: url.path, reason: "cannot write the calibration: \(error.localizedDescription)")
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing key \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "\(error)"
        }
    }

    private struct Shape: Codable {
        var channels, height, width: Int
        init(_ shape: TensorShape) { (channels, height, width) = (shape.channels, shape.height, shape.width) }
        var shape: TensorShape { TensorShape(channels: channels, height: height, width: width) }
    }

    private struct Entry: Codable {
        var layer: Int
        var input: Shape
        var minimum, maximum, scale: Float
        var zeroPoint: Int
    }

    private struct Weights: Codable {
        var bytes: Int
        var sample: String
    }

    private struct Sidecar: Codable {
        var format: String
        var version: Int
        var cfg: String
        var input: Shape
        var images: Int
        var method: String
        var weights: Weights?
        var layers: [Entry]
    }
}
