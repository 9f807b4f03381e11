/// `[net]`: the network's input.
public struct NetSpec: Sendable, Equatable {
    /// Input width in pixels (`width`).
    public var width: Int
    /// Input height in pixels (`height`).
    public var height: Int
    /// Input planes (`channels`), 3 for RGB.
    public var channels: Int
}

/// `[convolutional]` / `[conv]`.
public struct ConvolutionalSpec: Sendable, Equatable {
    /// Output channels (`filters`).
    public var filters: Int
    /// Square kernel side (`size`).
    public var size: Int
    /// Horizontal step between windows (`stride_x`, default `stride`).
    public var strideX: Int
    /// Vertical step between windows (`stride_y`, default `stride`).
    public var strideY: Int
    /// Spacing between kernel taps (`dilation`, default 1; forced to 1 for 1x1 kernels as
    /// AlexeyAB does). The padding is multiplied by it.
    public var dilation: Int
    /// Zero padding on each side: `size / 2` when `pad=1`, else `padding` (before dilation).
    public var padding: Int
    /// Channel groups (`groups`); input and output channels split evenly among them.
    public var groups: Int
    /// Whether batch-norm parameters follow the biases in the weights file (`batch_normalize`).
    public var batchNormalize: Bool
    /// Stored transposed in the weights file (`flipped`).
    public var flipped: Bool
    /// Applied after bias (`activation`, default `logistic` as in Darknet).
    public var activation: Activation

    /// A convolution with every optional feature at its neutral value except those given.
    public init(filters: Int, size: Int, stride: Int = 1, strideX: Int? = nil, strideY: Int? = nil, dilation: Int = 1,
                padding: Int, groups: Int = 1, batchNormalize: Bool, flipped: Bool = false, activation: Activation) {
        self.filters = filters
        self.size = size
        self.strideX = strideX ?? stride
        self.strideY = strideY ?? stride
        self.dilation = dilation
        self.padding = padding
        self.groups = groups
        self.batchNormalize = batchNormalize
        self.flipped = flipped
        self.activation = activation
    }
}

/// `[maxpool]` / `[max]`.
public struct MaxpoolSpec: Sendable, Equatable {
    /// Window side (`size`, default `stride`).
    public var size: Int
    /// Horizontal step (`stride_x`, default `stride`, which defaults to 1).
    public var strideX: Int
    /// Vertical step (`stride_y`, default `stride`).
    public var strideY: Int
    /// Total padding (`padding`, default `size - 1`); windows start at `-padding / 2`.
    public var padding: Int

    /// A pool with the same step on both axes unless `strideX`/`strideY` are given.
    public init(size: Int, stride: Int, strideX: Int? = nil, strideY: Int? = nil, padding: Int) {
        self.size = size
        self.strideX = strideX ?? stride
        self.strideY = strideY ?? stride
        self.padding = padding
    }
}

/// `[route]`: concatenates earlier outputs along channels.
public struct RouteSpec: Sendable, Equatable {
    /// Absolute indices of the source layers (relative ones already resolved).
    public var layers: [Int]
    /// Each source is cut into this many equal channel slices (`groups`, default 1) ...
    public var groups: Int = 1
    /// ... and slice `groupID` of each is taken (`group_id`, default 0).
    public var groupID: Int = 0
}

/// `[upsample]`: nearest-neighbour enlargement.
public struct UpsampleSpec: Sendable, Equatable {
    /// Enlargement factor (`stride`, default 2).
    public var stride: Int
    /// Multiplier applied to every value (`scale`, default 1).
    public var scale: Float
}

/// `[shortcut]`: adds earlier layers' outputs to the previous one.
public struct ShortcutSpec: Sendable, Equatable {
    /// Absolute indices of the added layers (`from`, one or more, relative resolved).
    public var from: [Int]
    /// Applied to the sum (`activation`, default linear).
    public var activation: Activation
    /// Weight of the previous layer's output (`alpha`, default 1).
    public var alpha: Float
    /// Weight of the `from` layers' outputs (`beta`, default 1).
    public var beta: Float
}

/// `[yolo]`: YOLOv3 detection head.
public struct YoloSpec: Sendable, Equatable {
    /// Indices into `anchors` used by this head (`mask`).
    public var mask: [Int]
    /// All anchors as (width, height) pairs in network-input pixels (`anchors`).
    public var anchors: [(width: Float, height: Float)]
    /// Number of classes (`classes`, default 20).
    public var classes: Int
    /// AlexeyAB's `scale_x_y` (default 1): x and y become `s * x - (s - 1) / 2` after the logistic.
    public var scaleXY: Float = 1
    /// AlexeyAB's `new_coords` (YOLOv7 style, default off): no logistic in the layer, and
    /// `w = 4 * tw^2 * anchor_w` when decoding.
    public var newCoords: Bool = false
    /// How detections are suppressed (`nms_kind`, `beta_nms`); the last head's choice applies.
    public var nms: NMSKind = .default

    public static func == (a: YoloSpec, b: YoloSpec) -> Bool {
        a.mask == b.mask && a.classes == b.classes && a.anchors.count == b.anchors.count
            && zip(a.anchors, b.anchors).allSatisfy { $0.width == $1.width && $0.height == $1.height }
            && a.scaleXY == b.scaleXY && a.newCoords == b.newCoords && a.nms == b.nms
    }
}

/// What one layer of the network is, with its typed parameters.
public enum LayerKind: Sendable, Equatable {
    case convolutional(ConvolutionalSpec)
    case maxpool(MaxpoolSpec)
    case route(RouteSpec)
    case upsample(UpsampleSpec)
    case shortcut(ShortcutSpec)
    case yolo(YoloSpec)
    case scaleChannels(ScaleChannelsSpec)
    case sam(SamSpec)
    case region(RegionSpec)
    case reorg(ReorgSpec)
    case avgpool(AvgpoolSpec)
    case softmax(SoftmaxSpec)
    case connected(ConnectedSpec)
    case dropout(DropoutSpec)
    case batchnorm(BatchnormSpec)
    case cost(CostSpec)
    case crop(CropSpec)

    /// The canonical cfg section name (`convolutional`, `maxpool`, ...).
    public var sectionName: String {
        switch self {
        case .convolutional: "convolutional"
        case .maxpool: "maxpool"
        case .route: "route"
        case .upsample: "upsample"
        case .shortcut: "shortcut"
        case .yolo: "yolo"
        case .scaleChannels: "scale_channels"
        case .sam: "sam"
        case .region: "region"
        case .reorg: "reorg"
        case .avgpool: "avgpool"
        case .softmax: "softmax"
        case .connected: "connected"
        case .dropout: "dropout"
        case .batchnorm: "batchnorm"
        case .cost: "cost"
        case .crop: "crop"
        }
    }
}

/// One layer as the cfg describes it, with where it was written.
public struct LayerSpec: Sendable, Equatable {
    /// 0-based layer index (Darknet's numbering: `[net]` is not a layer).
    public let index: Int
    /// 1-based line of the section header.
    public let line: Int
    /// The layer's type and parameters.
    public let kind: LayerKind
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
    public let layers: [LayerSpec]
    /// Keys that were not understood (and other remarks); never errors.
    public let diagnostics: [CfgDiagnostic]

    /// The same network with another input size (Darknet's `resize_network`); the plan
    /// checks that every layer still fits.
    public func resized(width: Int, height: Int) -> NetworkSpec {
        NetworkSpec(file: file, net: NetSpec(width: width, height: height, channels: net.channels), netLine: netLine,
                    layers: layers, diagnostics: diagnostics)
    }
}
