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
        guard let first = document.sections.first, LayerRegistry.netNames.contains(first.name) else {
            throw CfgError(file: file, line: document.sections.first?.line, reason: .missingNetSection)
        }
        var diagnostics: [CfgDiagnostic] = []
        var netReader = SectionReader(file: file, section: first)
        let net = try Self.readNet(&netReader)
        diagnostics += netReader.diagnostics()

        var layers: [LayerSpec] = []
        for section in document.sections.dropFirst() {
            let index = layers.count
            guard let entry = LayerRegistry.entry(named: section.name) else {
                if LayerRegistry.netNames.contains(section.name) {
                    throw CfgError(file: file, line: section.line, reason: .unsupported("a second [net] section"))
                }
                if LayerRegistry.knownToDarknet.contains(section.name) {
                    throw CfgError(file: file, line: section.line,
                                   reason: .unsupported("the [\(section.name)] layer is not implemented by this library"))
                }
                throw CfgError(file: file, line: section.line, reason: .unknownSection(section.name))
            }
            var reader = SectionReader(file: file, section: section)
            reader.ignore(TrainingKeys.anyLayer)
            let layer = try entry.read(&reader, index)
            diagnostics += reader.diagnostics()
            layers.append(LayerSpec(index: index, line: section.line, kind: layer))
        }
        guard !layers.isEmpty else { throw CfgError(file: file, line: first.line, reason: .noLayers) }
        self.init(file: file, net: net, netLine: first.line, layers: layers, diagnostics: diagnostics)
    }

    private static func readNet(_ r: inout SectionReader) throws(CfgError) -> NetSpec {
        r.ignore(TrainingKeys.net)
        // Recurrent cfgs (rnn, gru) give only `inputs`: a vector, Darknet's h = w = c = 0.
        if !r.has("width"), !r.has("height"), !r.has("channels"), let inputs = try r.optionalInt("inputs") {
            guard inputs >= 1 else { throw r.error("inputs", .invalidValue(value: String(inputs), expected: "an integer >= 1")) }
            return NetSpec(width: 1, height: 1, channels: inputs)
        }
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
}
