/// The cfg section names this library recognises, aliases folded.
enum SectionKind: Equatable {
    case net, convolutional, maxpool, route, upsample, shortcut, yolo
    case scaleChannels, sam
    case region, reorg, avgpool, softmax, connected, dropout, batchnorm, cost, crop

    init?(name: String) {
        switch name {
        case "net", "network": self = .net
        case "convolutional", "conv": self = .convolutional
        case "maxpool", "max": self = .maxpool
        case "route": self = .route
        case "upsample": self = .upsample
        case "shortcut": self = .shortcut
        case "yolo": self = .yolo
        case "scale_channels": self = .scaleChannels
        case "sam": self = .sam
        case "region": self = .region
        case "reorg": self = .reorg
        case "avgpool", "avg": self = .avgpool
        case "softmax", "soft": self = .softmax
        case "connected", "conn": self = .connected
        case "dropout": self = .dropout
        case "batchnorm": self = .batchnorm
        case "cost": self = .cost
        case "crop": self = .crop
        default: return nil
        }
    }

    /// Sections Darknet knows that this library does not run (yet): a clearer error than
    /// "unknown section".
    static let knownToDarknet: Set<String> = [
        "reorg3d", "detection", "local", "lstm", "rnn", "gru", "crnn", "conv_lstm",
        "normalization", "lrn", "deconvolutional", "deconv", "activation", "logistic", "l2norm", "iseg",
        "xnor", "gaussian_yolo", "contrastive", "implicit", "empty", "silence",
        "local_avgpool",
    ]
}
