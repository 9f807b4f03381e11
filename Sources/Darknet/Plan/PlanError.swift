/// A network whose layers do not fit together, found while planning.
public struct PlanError: DarknetError, Equatable, Sendable {
    /// What does not fit.
    public enum Reason: Equatable, Sendable {
        /// The kernel or window is larger than the (padded) input.
        case windowLargerThanInput(window: Int, input: TensorShape, padding: Int)
        /// The input channels are not divisible by the convolution's groups.
        case channelsNotDivisibleByGroups(channels: Int, groups: Int)
        /// Route sources differ in height or width.
        case routeSizeMismatch(first: TensorShape, other: TensorShape, otherLayer: Int)
        /// A shortcut's two inputs have different shapes.
        case shortcutShapeMismatch(previous: TensorShape, from: TensorShape, fromLayer: Int)
        /// A `[sam]` or `[scale_channels]` layer cannot multiply its two inputs: `[sam]` needs
        /// equal shapes, `[scale_channels]` a `1 x 1 x C` scale (or `W x H x 1` with `scale_wh`).
        case scaleShapeMismatch(previous: TensorShape, from: TensorShape, fromLayer: Int)
        /// A `[yolo]` layer's input does not have `len(mask) * (classes + 5)` channels.
        case yoloChannelMismatch(expected: Int, actual: Int)
        /// A `[Gaussian_yolo]` layer's input does not have `len(mask) * (classes + 9)` channels.
        case gaussianYoloChannelMismatch(expected: Int, actual: Int)
        /// A `[contrastive]` layer's `yolo_layer` is not a `[yolo]` layer.
        case contrastiveSourceNotYolo(layer: Int, section: String)
        /// A `[region]` layer's input does not have `num * (classes + 5)` channels.
        case regionChannelMismatch(expected: Int, actual: Int)
        /// A `[detection]` layer's input does not hold `side * side * (classes + num * 5)` values.
        case detectionSizeMismatch(expected: Int, actual: Int)
        /// A `[reorg]` input whose width, height or channels the stride does not divide.
        case reorgNotDivisible(input: TensorShape, stride: Int)
        /// A `[reorg3d] reverse=1` input whose channels are not a multiple of `stride⁴` (AlexeyAB's
        /// permutation reads the output as a grid `stride` times larger again).
        case reorgReverseChannelsNotDivisible(channels: Int, stride: Int)
        /// A `[crop]` window larger than its input.
        case cropLargerThanInput(width: Int, height: Int, input: TensorShape)
        /// A `[softmax]` whose groups do not divide its input.
        case softmaxGroupsNotDividing(inputs: Int, groups: Int)
        /// A `[softmax] tree=` whose input does not hold one value per class of the tree.
        case treeClassCountMismatch(inputs: Int, treeClasses: Int)
        /// A size computation overflowed.
        case sizeOverflow
        /// The planned memory exceeds the configured limit; nothing was allocated.
        case memoryLimitExceeded(bytes: Int, limit: Int)
        /// The int8 calibration (`PlanOptions.precision`) was made for another network.
        case calibrationMismatch(String)
        /// The plan was made for another processor (`PlanOptions.cpu`), whose kernels this one
        /// does not execute: it can be inspected, not loaded.
        case cpuMismatch(planned: String, running: String)
    }

    /// 0-based index of the layer (-1 for the network as a whole).
    public let layer: Int
    /// The layer's section name (`convolutional`, ...).
    public let section: String
    /// What does not fit.
    public let reason: Reason
    /// The cfg file (path or name given to the parser); empty when the plan was made from a
    /// spec built without one.
    public var file: String
    /// 1-based line of the layer's section header (of `[net]` for the network as a whole).
    public var line: Int?
    /// The cfg's diagnostics (unknown or repeated keys): often the cause of the mismatch.
    public var notes: [CfgDiagnostic]

    public init(layer: Int, section: String, reason: Reason, file: String = "", line: Int? = nil,
                notes: [CfgDiagnostic] = []) {
        self.layer = layer
        self.section = section
        self.reason = reason
        self.file = file
        self.line = line
        self.notes = notes
    }

    /// `yolo-channels.cfg:132: layer 16 [yolo]: input has 200 channels, ...`, then the notes.
    public var description: String {
        var location = file
        if let line { location += location.isEmpty ? "line \(line)" : ":\(line)" }
        let subject = layer >= 0 ? "layer \(layer) [\(section)]" : "network"
        return (location.isEmpty ? "" : location + ": ") + "\(subject): \(reason.message)" + notes.noteSuffix
    }

    /// The same error located in `spec`'s file, at its layer's section, with its diagnostics.
    func located(in spec: NetworkSpec) -> PlanError {
        var located = self
        located.file = spec.file
        located.line = spec.layers.indices.contains(layer) ? spec.layers[layer].line : spec.netLine
        located.notes = spec.diagnostics
        return located
    }
}

extension PlanError.Reason {
    var message: String {
        switch self {
        case .windowLargerThanInput(let window, let input, let padding):
            "window \(window)x\(window) is larger than the input \(input) with padding \(padding)"
        case .channelsNotDivisibleByGroups(let channels, let groups):
            "input channels \(channels) are not divisible by groups \(groups)"
        case .routeSizeMismatch(let first, let other, let otherLayer):
            "route inputs differ in size: \(first) and \(other) (layer \(otherLayer))"
        case .shortcutShapeMismatch(let previous, let from, let fromLayer):
            "shortcut shapes differ: previous layer \(previous), layer \(fromLayer) \(from)"
        case .scaleShapeMismatch(let previous, let from, let fromLayer):
            "cannot multiply the previous layer's \(previous) with layer \(fromLayer)'s \(from)"
        case .yoloChannelMismatch(let expected, let actual):
            "input has \(actual) channels, expected len(mask) * (classes + 5) = \(expected)"
        case .gaussianYoloChannelMismatch(let expected, let actual):
            "input has \(actual) channels, expected len(mask) * (classes + 9) = \(expected)"
        case .contrastiveSourceNotYolo(let layer, let section):
            "yolo_layer is layer \(layer), a [\(section)], not a [yolo] layer"
        case .regionChannelMismatch(let expected, let actual):
            "input has \(actual) channels, expected num * (classes + 5) = \(expected)"
        case .detectionSizeMismatch(let expected, let actual):
            "input has \(actual) values, expected side * side * (classes + num * 5) = \(expected)"
        case .reorgNotDivisible(let input, let stride):
            "input \(input) cannot be reorganised with stride \(stride): width and height must be multiples of it and channels of its square"
        case .reorgReverseChannelsNotDivisible(let channels, let stride):
            "\(channels) input channels cannot be reorganised in reverse with stride \(stride): they must be a multiple of stride⁴"
        case .cropLargerThanInput(let width, let height, let input):
            "crop \(width)x\(height) is larger than the input \(input)"
        case .softmaxGroupsNotDividing(let inputs, let groups):
            "groups \(groups) do not divide the \(inputs) input values"
        case .treeClassCountMismatch(let inputs, let treeClasses):
            "input has \(inputs) values, expected one per class of the tree = \(treeClasses)"
        case .sizeOverflow:
            "tensor sizes overflow"
        case .memoryLimitExceeded(let bytes, let limit):
            "needs \(bytes) bytes, more than the limit of \(limit) bytes"
        case .calibrationMismatch(let reason):
            "the int8 calibration does not match: \(reason)"
        case .cpuMismatch(let planned, let running):
            "planned for another CPU (\(planned)); this one (\(running)) does not run its kernels"
        }
    }
}
