import Darknet
import Foundation

/// The models Frigate's ZMQ detectors name in their handshake (the file name of `model.path`),
/// the ones they transferred, and which model each connected detector uses.
///
/// A name is served when it is a served model's name (alone or with `.weights`, `.tar` or
/// `.cfg`) or its weights file's name. A transferred file is read in memory, loaded, and only
/// then saved in the model directory, so a later run (or a detector reconnecting) finds it
/// there: a `.tar` bundle (`DarknetBundle`), or else a `.weights` for the first model's cfg.
/// Loads run one at a time. A detector that never shook hands gets the first model.
final class FrigateModels: @unchecked Sendable {
    private let served: [ServedModel]
    private let directory: URL?
    private let lock = NSLock()
    /// Held while a model is loaded, so two detectors sending the same file load it once.
    private let loading = NSLock()
    /// Transferred models by the name Frigate gave.
    private var transferred: [String: ServedModel] = [:]
    /// The model each detector's socket (its ROUTER identity) chose, the oldest first out.
    private var chosen: [[UInt8]: ServedModel] = [:]
    private var order: [[UInt8]] = []
    /// Detector sockets remembered (each reset makes a new one).
    static let maximumPeers = 256

    init(served: [ServedModel], directory: URL?) {
        self.served = served
        self.directory = directory
    }

    /// The model Frigate's `name` stands for, loading a saved transfer if needed; nil if it is
    /// not here.
    /// - Throws: `ModelTransferError.load` when a saved file by that name does not load.
    func find(_ name: String) throws(ModelTransferError) -> ServedModel? {
        if let model = served.first(where: { $0.answers(frigateName: name) }) { return model }
        loading.lock()
        defer { loading.unlock() }
        if let model = lock.withLock({ transferred[name] }) { return model }
        guard let file = directory?.appendingPathComponent(name), FileManager.default.fileExists(atPath: file.path) else { return nil }
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: file)) } catch { throw .load("\(file.path): \(error.localizedDescription)") }
        return remember(name, try load(name, bytes))
    }

    /// Loads the transferred `bytes` as model `name`, then saves them in the model directory.
    /// - Throws: `ModelTransferError`: no directory, not a bundle, not loadable, not writable.
    func save(_ name: String, bytes: [UInt8]) throws(ModelTransferError) -> ServedModel {
        guard let directory else { throw .noDirectory }
        loading.lock()
        defer { loading.unlock() }
        let model = try load(name, bytes)
        let file = directory.appendingPathComponent(name), partial = directory.appendingPathComponent(".\(name).partial")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: partial)
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            try FileManager.default.moveItem(at: partial, to: file)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw .save("\(file.path): \(error.localizedDescription)")
        }
        return remember(name, model)
    }

    /// From now on `peer`'s tensors go to `model`.
    func use(_ model: ServedModel, for peer: [UInt8]) {
        lock.withLock {
            if chosen.updateValue(model, forKey: peer) == nil { order.append(peer) }
            if order.count > Self.maximumPeers { chosen[order.removeFirst()] = nil }
        }
    }

    /// The model `peer` chose, or the first one.
    func model(for peer: [UInt8]) -> ServedModel {
        lock.withLock { chosen[peer] } ?? served[0]
    }

    private func remember(_ name: String, _ model: ServedModel) -> ServedModel {
        lock.withLock { transferred[name] = model }
        return model
    }

    /// `bytes` as a detector: a tar bundle, or weights for the first model's cfg, with the
    /// first model's threads and session policy.
    private func load(_ name: String, _ bytes: [UInt8]) throws(ModelTransferError) -> ServedModel {
        let template = served[0].detector
        let start = ContinuousClock.now
        do {
            let network: Network, labels: [String]
            if DarknetBundle.looksLikeArchive(bytes) {
                let bundle = try DarknetBundle(archive: bytes)
                let spec = try NetworkSpec.parse(bytes: bundle.cfg, file: "\(name):\(bundle.memberNames[0])")
                network = try Network(spec: spec, weights: bundle.weights, weightsName: "\(name):\(bundle.memberNames[1])")
                labels = try bundle.names.map { try Self.labels($0, file: "\(name):\(bundle.memberNames[2])") } ?? []
            } else if name.hasSuffix(".weights") {
                network = try Network(spec: template.network.spec, weights: bytes, weightsName: name)
                labels = template.labels
            } else {
                throw ModelTransferError.bundle("'\(name)' is neither a tar archive nor a .weights file")
            }
            let detector = try Detector(network: network, labels: labels, labelsFile: name, threads: template.threads,
                                        sessionPolicy: template.sessionPolicy)
            return ServedModel(name: name, detector: detector, loadSeconds: start.duration(to: .now).seconds)
        } catch let error as ModelTransferError {
            throw error
        } catch {
            throw .load(String(describing: error))
        }
    }

    /// A names member's labels: one a line, trimmed; a final line feed adds none.
    private static func labels(_ bytes: [UInt8], file: String) throws(ModelTransferError) -> [String] {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .load("\(file): not UTF-8 text") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
