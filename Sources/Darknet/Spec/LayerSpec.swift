/// `[net]`: the network's input.
public struct NetSpec: Sendable, Equatable {
    /// Input width in pixels (`width`).
    public var width: Int
    /// Input height in pixels (`height`).
    public var height: Int
    /// Input planes (`channels`), 3 for RGB.
    public var channels: Int
}

/// One layer as the cfg describes it, with where it was written.
public struct LayerSpec: Sendable, Equatable {
    /// 0-based layer index (Darknet's numbering: `[net]` is not a layer).
    public let index: Int
    /// 1-based line of the section header.
    public let line: Int
    /// The layer's type and parameters.
    public internal(set) var kind: LayerKind
}

/// A whole `.cfg` file as typed descriptions.
public struct NetworkSpec: Sendable, Equatable {
    /// The file name used in messages.
    public let file: String
    /// The `[net]` section.
    public let net: NetSpec
    /// 1-based line of the `[net]` header, for errors about the network as a whole.
    public let netLine: Int
    /// The layers in order.
    public internal(set) var layers: [LayerSpec]
    /// Keys that were not understood (and other remarks); never errors.
    public let diagnostics: [CfgDiagnostic]

    /// The same network with another input size (Darknet's `resize_network`); the plan
    /// checks that every layer still fits.
    public func resized(width: Int, height: Int) -> NetworkSpec {
        NetworkSpec(file: file, net: NetSpec(width: width, height: height, channels: net.channels), netLine: netLine,
                    layers: layers, diagnostics: diagnostics)
    }
}

extension NetworkSpec: CustomStringConvertible {
    /// The file, its layer count and input, as `NetworkSpec(yolov3-tiny.cfg: 24 layers, input 416 x 416 x 3)`.
    public var description: String {
        "NetworkSpec(\(file): \(layers.count) layers, input \(net.width) x \(net.height) x \(net.channels))"
    }
}
