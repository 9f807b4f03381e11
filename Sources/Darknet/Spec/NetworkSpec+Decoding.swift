import Foundation

extension NetworkSpec {
    /// Reads and interprets a `.cfg` file.
    /// - Throws: `FileError` (missing, unreadable, a directory), `CfgError`.
    public static func parse(contentsOf url: URL) throws -> NetworkSpec {
        try parse(bytes: try readFile(url), file: url.path)
    }

    /// Reads and interprets `.cfg` text.
    public static func parse(text: String, file: String) throws(CfgError) -> NetworkSpec {
        try NetworkSpec(document: CfgParser.parse(text: text, file: file))
    }

    /// Reads and interprets `.cfg` bytes (UTF-8).
    public static func parse(bytes: [UInt8], file: String) throws(CfgError) -> NetworkSpec {
        try NetworkSpec(document: CfgParser.parse(bytes: bytes, file: file))
    }

    /// Interprets the sections of a parsed `.cfg`: the first must be `[net]`, every other one a layer.
    public init(document: CfgDocument) throws(CfgError) {
        let file = document.file
        guard let first = document.sections.first, SectionKind(name: first.name) == .net else {
            throw CfgError(file: file, line: document.sections.first?.line, reason: .missingNetSection)
        }
        var diagnostics: [CfgDiagnostic] = []
        var netReader = SectionReader(file: file, section: first)
        let net = try Self.decodeNet(&netReader)
        diagnostics += netReader.diagnostics()

        var layers: [LayerSpec] = []
        for section in document.sections.dropFirst() {
            let index = layers.count
            guard let kind = SectionKind(name: section.name) else {
                if SectionKind.knownToDarknet.contains(section.name) {
                    throw CfgError(file: file, line: section.line,
                                   reason: .unsupported("the [\(section.name)] layer is not implemented by this library"))
                }
                throw CfgError(file: file, line: section.line, reason: .unknownSection(section.name))
            }
            var reader = SectionReader(file: file, section: section)
            reader.ignore(TrainingKeys.anyLayer)
            let layer: LayerKind
            switch kind {
            case .net:
                throw CfgError(file: file, line: section.line, reason: .unsupported("a second [net] section"))
            case .convolutional: layer = .convolutional(try Self.decodeConvolutional(&reader))
            case .maxpool: layer = .maxpool(try Self.decodeMaxpool(&reader))
            case .route: layer = .route(try Self.decodeRoute(&reader, index: index))
            case .upsample: layer = .upsample(try Self.decodeUpsample(&reader))
            case .shortcut: layer = .shortcut(try Self.decodeShortcut(&reader, index: index))
            case .yolo: layer = .yolo(try Self.decodeYolo(&reader))
            case .scaleChannels: layer = .scaleChannels(try Self.decodeScaleChannels(&reader, index: index))
            case .sam: layer = .sam(try Self.decodeSam(&reader, index: index))
            case .region, .reorg, .avgpool, .softmax, .connected, .dropout, .batchnorm, .cost, .crop:
                layer = try Self.decodeDarknetLayer(kind, &reader)
            }
            diagnostics += reader.diagnostics()
            layers.append(LayerSpec(index: index, line: section.line, kind: layer))
        }
        guard !layers.isEmpty else { throw CfgError(file: file, line: first.line, reason: .noLayers) }
        self.init(file: file, net: net, netLine: first.line, layers: layers, diagnostics: diagnostics)
    }

    private static func decodeNet(_ r: inout SectionReader) throws(CfgError) -> NetSpec {
        r.ignore(TrainingKeys.net)
        let width = try r.requiredInt("width", minimum: 1)
        let height = try r.requiredInt("height", minimum: 1)
        let channels = try r.requiredInt("channels", minimum: 1)
        if let inputs = try r.optionalInt("inputs") {
            // Each factor fits 32 bits, so the product can overflow Int (then no `inputs` matches).
            let (area, overflowA) = width.multipliedReportingOverflow(by: height)
            let (count, overflowB) = area.multipliedReportingOverflow(by: channels)
            guard !overflowA, !overflowB, inputs == count else {
                let product = overflowA || overflowB ? "\(width)*\(height)*\(channels)" : String(count)
                throw r.error("inputs", .invalidValue(value: String(inputs), expected: "width*height*channels = \(product)"))
            }
        }
        return NetSpec(width: width, height: height, channels: channels)
    }

    private static func decodeConvolutional(_ r: inout SectionReader) throws(CfgError) -> ConvolutionalSpec {
        r.ignore(TrainingKeys.convolutional)
        let filters = try r.int("filters", default: 1, minimum: 1)
        let size = try r.int("size", default: 1, minimum: 1)
        let (strideX, strideY) = try Self.decodeStrides(&r)
        let pad = try r.bool("pad", default: false)
        var padding = try r.int("padding", default: 0, minimum: 0)
        if pad { padding = size / 2 }
        let groups = try r.int("groups", default: 1, minimum: 1)
        guard filters % groups == 0 else {
            throw r.error("groups", .invalidValue(value: String(groups), expected: "a divisor of filters (\(filters))"))
        }
        var dilation = try r.int("dilation", default: 1, minimum: 1)
        if size == 1 { dilation = 1 }  // AlexeyAB: a 1x1 kernel has nothing to spread
        let crossBatchNorm = try Self.decodeConvolutionExtensions(&r)
        try Self.checkDilation(r, size: size, padding: padding, dilation: dilation)
        try r.requireNeutral("binary", 0, feature: "binary (XNOR) weights")
        try r.requireNeutral("xnor", 0, feature: "XNOR convolution")
        try r.requireNeutral("antialiasing", 0, feature: "antialiasing")
        try r.requireNeutral("dot", 0, feature: "dot-product regularisation")
        return ConvolutionalSpec(
            filters: filters, size: size, strideX: strideX, strideY: strideY, dilation: dilation, padding: padding, groups: groups,
            batchNormalize: try r.bool("batch_normalize", default: false) || crossBatchNorm,
            flipped: try r.bool("flipped", default: false),
            activation: try r.activation("activation", default: .logistic))
    }

    private static func decodeMaxpool(_ r: inout SectionReader) throws(CfgError) -> MaxpoolSpec {
        r.ignore(TrainingKeys.maxpool)
        let stride = try r.int("stride", default: 1, minimum: 1)
        let strideX = try r.int("stride_x", default: stride, minimum: 1)
        let strideY = try r.int("stride_y", default: stride, minimum: 1)
        let size = try r.int("size", default: stride, minimum: 1)
        let padding = try r.int("padding", default: size - 1, minimum: 0)
        try r.requireNeutral("maxpool_depth", 0, feature: "maxpool over channels")
        try r.requireNeutral("antialiasing", 0, feature: "antialiasing")
        try r.requireNeutral("maxpool_zero_nonmax", 0, feature: "maxpool_zero_nonmax")
        r.ignore(["out_channels"])  // read by AlexeyAB only together with maxpool_depth
        return MaxpoolSpec(size: size, stride: stride, strideX: strideX, strideY: strideY, padding: padding)
    }

    private static func decodeRoute(_ r: inout SectionReader, index: Int) throws(CfgError) -> RouteSpec {
        r.ignore(TrainingKeys.route)
        guard let written = try r.intList("layers") else { throw r.error("layers", .missingKey) }
        let layers = try written.map { (value: Int) throws(CfgError) -> Int in
            try resolveSource(value, at: index, key: "layers", reader: r)
        }
        let groups = try r.int("groups", default: 1, minimum: 1)
        let groupID = try r.int("group_id", default: 0, minimum: 0)
        guard groupID < groups else {
            throw r.error("group_id", .invalidValue(value: String(groupID), expected: "a slice index in 0..<groups (\(groups))"))
        }
        r.ignore(["stream", "wait_stream"])  // GPU scheduling
        return RouteSpec(layers: layers, groups: groups, groupID: groupID)
    }

    private static func decodeUpsample(_ r: inout SectionReader) throws(CfgError) -> UpsampleSpec {
        r.ignore(TrainingKeys.upsample)
        let stride = try r.int("stride", default: 2, minimum: 1)
        return UpsampleSpec(stride: stride, scale: try r.float("scale", default: 1))
    }

    private static func decodeShortcut(_ r: inout SectionReader, index: Int) throws(CfgError) -> ShortcutSpec {
        r.ignore(TrainingKeys.shortcut)
        guard let written = try r.intList("from") else { throw r.error("from", .missingKey) }
        let from = try written.map { (value: Int) throws(CfgError) -> Int in
            try resolveSource(value, at: index, key: "from", reader: r)
        }
        try Self.checkShortcutWeights(&r)
        return ShortcutSpec(
            from: from,
            activation: try r.activation("activation", default: .linear),
            alpha: try r.float("alpha", default: 1),
            beta: try r.float("beta", default: 1))
    }

    private static func decodeYolo(_ r: inout SectionReader) throws(CfgError) -> YoloSpec {
        r.ignore(TrainingKeys.yolo)
        let classes = try r.int("classes", default: 20, minimum: 1)
        let num = try r.int("num", default: 1, minimum: 1)
        guard let values = try r.floatList("anchors") else { throw r.error("anchors", .missingKey) }
        guard values.count % 2 == 0 else {
            throw r.error("anchors", .invalidValue(value: r.entry("anchors")!.value, expected: "an even count of numbers (width,height pairs)"))
        }
        guard values.count == 2 * num else {
            throw r.error("anchors", .invalidValue(value: r.entry("anchors")!.value, expected: "num=\(num) width,height pairs (\(2 * num) numbers), found \(values.count)"))
        }
        let anchors = stride(from: 0, to: values.count, by: 2).map { (width: values[$0], height: values[$0 + 1]) }
        let mask = try r.intList("mask") ?? Array(0..<num)
        if let bad = mask.first(where: { $0 < 0 || $0 >= num }) {
            throw r.error("mask", .invalidValue(value: String(bad), expected: "anchor indices in 0..<\(num)"))
        }
        var spec = YoloSpec(mask: mask, anchors: anchors, classes: classes)
        try Self.decodeYoloExtensions(&r, into: &spec)
        return spec
    }

    /// Darknet's rule: a negative index counts back from the current layer.
    static func resolveSource(_ value: Int, at index: Int, key: String, reader: SectionReader) throws(CfgError) -> Int {
        let absolute = value < 0 ? index + value : value
        guard absolute >= 0, absolute < index else {
            throw reader.error(key, .invalidValue(value: String(value),
                                                  expected: "an earlier layer (relative -1...-\(index) or absolute 0..<\(index)) for layer \(index)"))
        }
        return absolute
    }
}
