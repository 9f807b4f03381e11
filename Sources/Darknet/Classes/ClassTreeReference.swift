import Foundation

/// A `tree=` key (`[softmax]`, `[region]`): the class hierarchy file a cfg names, as written.
/// Parsing keeps the reference; loading a network reads the file (`load()`), so a cfg parses
/// and plans the same wherever it is and whatever the working directory holds.
public struct ClassTreeReference: Sendable, Equatable, Hashable {
    /// The path as the cfg gives it.
    public let path: String
    /// The cfg file (path or name given to the parser) and the key's line, for errors.
    public let cfg: String
    public let line: Int

    public init(path: String, cfg: String, line: Int) {
        self.path = path
        self.cfg = cfg
        self.line = line
    }

    /// Reads and parses the tree. The path is tried as Darknet opens it (absolute, or relative
    /// to the working directory), then, for a cfg read from a file, relative to the cfg's folder
    /// and to its parent, and last the file's name alone in the cfg's folder and in `data/`
    /// beside it. So Debian's cfgs (`tree=/usr/share/darknet/data/9k.tree`) and AlexeyAB's
    /// (`tree=data/9k.tree`) find the tree of a Darknet checkout (`cfg/`, `data/`) wherever it is.
    /// - Throws: `CfgError` naming the key's line when no candidate exists or the tree is invalid.
    public func load() throws(CfgError) -> ClassTree {
        let candidates = self.candidates
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw error("a class tree file; tried \(candidates.joined(separator: ", "))")
        }
        do {
            return try ClassTree(contentsOf: URL(fileURLWithPath: found))
        } catch let problem as ClassTreeError {
            throw error("a valid class tree (\(problem))")
        } catch {
            throw self.error("a readable class tree (\(error))")
        }
    }

    private func error(_ expected: String) -> CfgError {
        CfgError(file: cfg, line: line, key: "tree", reason: .invalidValue(value: path, expected: expected))
    }

    /// Where the tree may be, in the order `load()` tries them.
    var candidates: [String] { Self.candidates(path, cfg: cfg) }

    static func candidates(_ path: String, cfg: String) -> [String] {
        var candidates = [path]
        let cfgURL = URL(fileURLWithPath: cfg)
        // A cfg parsed from memory has a display name, not a path: only Darknet's own lookup applies.
        guard FileManager.default.fileExists(atPath: cfg) else { return candidates }
        let folder = cfgURL.deletingLastPathComponent(), parent = folder.deletingLastPathComponent()
        let name = URL(fileURLWithPath: path).lastPathComponent
        if !path.hasPrefix("/") {
            candidates += [folder.appendingPathComponent(path).path, parent.appendingPathComponent(path).path]
        }
        candidates += [folder.appendingPathComponent(name).path, parent.appendingPathComponent("data").appendingPathComponent(name).path]
        var seen: Set<String> = []
        return candidates.filter { seen.insert($0).inserted }
    }
}

extension SectionReader {
    /// The `tree=` reference of a section (nil if the key is absent); nothing is read.
    mutating func classTree(_ key: String) -> ClassTreeReference? {
        ignore([key])
        return entry(key).map { ClassTreeReference(path: $0.value, cfg: file, line: $0.line) }
    }
}

extension NetworkSpec {
    /// This spec with every `tree=` reference loaded (`SoftmaxSpec.tree`, `RegionSpec.tree`):
    /// what a network runs. Parsing never reads the trees; every `Network` initialiser loads
    /// them first.
    /// - Throws: `CfgError` naming a `tree=` line whose file is missing or invalid, or a
    ///   `[region]` whose tree has another class count than `classes`.
    public func loadingClassTrees() throws(CfgError) -> NetworkSpec {
        var spec = self
        for (index, layer) in spec.layers.enumerated() {
            switch layer.kind {
            case .softmax(var softmax):
                guard let reference = softmax.treeFile, softmax.tree == nil else { continue }
                softmax.tree = try reference.load()
                spec.layers[index].kind = .softmax(softmax)
            case .region(var region):
                guard let reference = region.treeFile, region.tree == nil else { continue }
                let tree = try reference.load()
                guard tree.count == region.classes else {
                    throw CfgError(file: reference.cfg, line: reference.line, key: "tree", reason: .invalidValue(
                        value: reference.path, expected: "a tree of classes=\(region.classes) classes, found \(tree.count)"))
                }
                region.tree = tree
                spec.layers[index].kind = .region(region)
            default: continue
            }
        }
        return spec
    }
}
