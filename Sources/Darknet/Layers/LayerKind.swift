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
    case localAvgpool(LocalAvgpoolSpec)
    case local(LocalSpec)
    case detection(DetectionSpec)
    case rnn(RNNSpec)
    case gru(GRUSpec)
    case lstm(LSTMSpec)
    case crnn(CRNNSpec)
    case gaussianYolo(GaussianYoloSpec)
    case reorg3d(Reorg3dSpec)
    case contrastive(ContrastiveSpec)

    /// The layer type behind this case: every stage (plan, load, run) goes through it.
    var layer: any Layer {
        switch self {
        case .convolutional(let layer): layer
        case .maxpool(let layer): layer
        case .route(let layer): layer
        case .upsample(let layer): layer
        case .shortcut(let layer): layer
        case .yolo(let layer): layer
        case .scaleChannels(let layer): layer
        case .sam(let layer): layer
        case .region(let layer): layer
        case .reorg(let layer): layer
        case .avgpool(let layer): layer
        case .softmax(let layer): layer
        case .connected(let layer): layer
        case .dropout(let layer): layer
        case .batchnorm(let layer): layer
        case .cost(let layer): layer
        case .crop(let layer): layer
        case .localAvgpool(let layer): layer
        case .local(let layer): layer
        case .detection(let layer): layer
        case .rnn(let layer): layer
        case .gru(let layer): layer
        case .lstm(let layer): layer
        case .crnn(let layer): layer
        case .gaussianYolo(let layer): layer
        case .reorg3d(let layer): layer
        case .contrastive(let layer): layer
        }
    }

    /// The canonical cfg section name (`convolutional`, `maxpool`, ...).
    public var sectionName: String { type(of: layer).sectionNames[0] }

    /// Whether this layer's output is what detections are decoded from.
    public var isDetectionHead: Bool { layer is any DetectionHead }

    /// Classes a detection head predicts (`nil` for other layers).
    var detectionClasses: Int? { (layer as? any DetectionHead)?.classes }
}

/// The section names this library runs, each with its layer type.
enum LayerRegistry {
    /// Every layer type, with the `LayerKind` case that holds it.
    static let entries: [Entry] = [
        Entry(ConvolutionalSpec.self, LayerKind.convolutional),
        Entry(MaxpoolSpec.self, LayerKind.maxpool),
        Entry(RouteSpec.self, LayerKind.route),
        Entry(UpsampleSpec.self, LayerKind.upsample),
        Entry(ShortcutSpec.self, LayerKind.shortcut),
        Entry(YoloSpec.self, LayerKind.yolo),
        Entry(ScaleChannelsSpec.self, LayerKind.scaleChannels),
        Entry(SamSpec.self, LayerKind.sam),
        Entry(RegionSpec.self, LayerKind.region),
        Entry(ReorgSpec.self, LayerKind.reorg),
        Entry(AvgpoolSpec.self, LayerKind.avgpool),
        Entry(SoftmaxSpec.self, LayerKind.softmax),
        Entry(ConnectedSpec.self, LayerKind.connected),
        Entry(DropoutSpec.self, LayerKind.dropout),
        Entry(BatchnormSpec.self, LayerKind.batchnorm),
        Entry(CostSpec.self, LayerKind.cost),
        Entry(CropSpec.self, LayerKind.crop),
        Entry(LocalAvgpoolSpec.self, LayerKind.localAvgpool),
        Entry(LocalSpec.self, LayerKind.local),
        Entry(DetectionSpec.self, LayerKind.detection),
        Entry(RNNSpec.self, LayerKind.rnn),
        Entry(GRUSpec.self, LayerKind.gru),
        Entry(LSTMSpec.self, LayerKind.lstm),
        Entry(CRNNSpec.self, LayerKind.crnn),
        Entry(GaussianYoloSpec.self, LayerKind.gaussianYolo),
        Entry(Reorg3dSpec.self, LayerKind.reorg3d),
        Entry(ContrastiveSpec.self, LayerKind.contrastive),
    ]

    /// The `[net]` section's names.
    static let netNames: Set<String> = ["net", "network"]

    /// Sections Darknet knows that this library does not run (yet): a clearer error than
    /// "unknown section".
    static let knownToDarknet: Set<String> = [
        "conv_lstm",
        "normalization", "lrn", "deconvolutional", "deconv", "activation", "logistic", "l2norm", "iseg",
        "xnor", "implicit", "empty", "silence",
    ]

    /// The entry for a section name or alias.
    static func entry(named name: String) -> Entry? { byName[name] }

    private static let byName: [String: Entry] = Dictionary(
        entries.flatMap { entry in entry.names.map { ($0, entry) } }, uniquingKeysWith: { first, _ in first })

    /// One layer type: its names and how its section becomes a `LayerKind`.
    struct Entry: Sendable {
        let names: [String]
        let read: @Sendable (inout SectionReader, Int) throws(CfgError) -> LayerKind

        init<L: Layer>(_ type: L.Type, _ wrap: @escaping @Sendable (L) -> LayerKind) {
            names = L.sectionNames
            read = { (reader: inout SectionReader, index: Int) throws(CfgError) -> LayerKind in
                wrap(try L.read(&reader, index: index))
            }
        }
    }
}
