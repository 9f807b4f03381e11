import CommandLineKit
import Darknet
import DarknetImage
import DarknetServe
import Foundation

/// `--model NAME=CFG,WEIGHTS,NAMES`: a model served at `/v1/vision/custom/NAME`.
struct ExtraModel {
    let name: String
    let cfg: URL
    let weights: URL
    let names: URL?

    init(option: String) throws {
        guard let equals = option.firstIndex(of: "=") else {
            throw CLIError("--model '\(option)': expected NAME=CFG,WEIGHTS,NAMES")
        }
        name = String(option[..<equals])
        let files = option[option.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard ServedModel.isValidName(name) else {
            throw CLIError("--model '\(option)': the name must be letters, digits, '-', '_' or '.', and not 'list'")
        }
        guard files.count == 2 || files.count == 3, !files.contains(where: \.isEmpty) else {
            throw CLIError("--model '\(option)': expected NAME=CFG,WEIGHTS,NAMES (three files, names optional)")
        }
        cfg = URL(fileURLWithPath: files[0])
        weights = URL(fileURLWithPath: files[1])
        names = files.count == 3 ? URL(fileURLWithPath: files[2]) : nil
    }
}

extension ServeCommand {
    /// The main model (`--cfg`, `--weights`, `--names`/`--data`, with the precision flags) and
    /// the `--model`s (float32), each loaded once, timed and run once on a grey image so the
    /// first request does not pay for the first pass.
    func loadModels() throws -> [ServedModel] {
        let policy = SessionPolicy(maximumSessions: configuration.workers, idleTimeout: 300)
        var models: [ServedModel] = []
        let files = try detectorFlags.model.resolve()
        let mainName = name ?? Self.defaultName(files.cfg)
        guard ServedModel.isValidName(mainName) else {
            throw CLIError("the model name '\(mainName)' must be letters, digits, '-', '_' or '.' (give --name)")
        }
        models.append(try timed(mainName, ServedModel.Files(cfg: files.cfg, weights: files.weights, names: files.names)) {
            try detectorFlags.loadDetector(files, letterbox: configuration.detection.letterbox, threads: threads, sessionPolicy: policy)
        })
        if detectorFlags.precision.int8 || detectorFlags.precision.reduced != nil, !extraModels.isEmpty { warn("--precision applies to the main model; the --model ones run in float32") }
        for extra in extraModels {
            models.append(try timed(extra.name, ServedModel.Files(cfg: extra.cfg, weights: extra.weights, names: extra.names)) {
                let spec = try loadSpec(extra.cfg)
                try report(spec, options: detectorFlags.plan.options)
                let network = try Network(spec: spec, weights: extra.weights, options: detectorFlags.plan.options)
                let labels = try extra.names.map { try Detector.readLabels($0) } ?? []
                return try Detector(network: network, labels: labels, labelsFile: extra.names?.path ?? "<labels>", threads: threads,
                                    sessionPolicy: policy)
            })
        }
        return models
    }

    private func timed(_ name: String, _ files: ServedModel.Files, _ load: () throws -> Detector) throws -> ServedModel {
        let start = ContinuousClock.now
        let detector = try load()
        let seconds = start.duration(to: .now)
        let shape = detector.network.inputShape
        _ = try detector.detect(try PlanarImage(width: shape.width, height: shape.height, channels: shape.channels, filledWith: 0.5))
        let (whole, fraction) = seconds.components
        return ServedModel(name: name, detector: detector, loadSeconds: Double(whole) + Double(fraction) * 1e-18, files: files)
    }

    /// `yolov3-tiny` for `.../yolov3-tiny.cfg`, made URL-safe.
    static func defaultName(_ cfg: URL) -> String {
        let base = cfg.deletingPathExtension().lastPathComponent
        let safe = String(base.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        }.prefix(64))
        return safe.isEmpty || safe == "list" ? "default" : safe
    }
}
