import Foundation

extension SectionReader {
    /// Reads a class hierarchy key (`tree=`, as `[softmax]` and `[region]` have): the `.tree` file
    /// it names, parsed (`nil` if the key is absent).
    ///
    /// The path is tried as Darknet opens it (absolute, or relative to the working directory),
    /// then, for a cfg read from a file, relative to the cfg's folder and to its parent, and last
    /// the file's name alone in the cfg's folder and in `data/` beside it. So Debian's cfgs
    /// (`tree=/usr/share/darknet/data/9k.tree`) and AlexeyAB's (`tree=data/9k.tree`) find the
    /// tree of a Darknet checkout (`cfg/`, `data/`) wherever it is.
    /// - Throws: `CfgError` naming the key's line when no candidate exists or the tree is invalid.
    mutating func classTree(_ key: String) throws(CfgError) -> ClassTree? {
        ignore([key])
        guard let entry = entry(key) else { return nil }
        let path = entry.value
        let candidates = Self.treeCandidates(path, cfg: file)
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw error(key, .invalidValue(value: path, expected: "a class tree file; tried \(candidates.joined(separator: ", "))"))
        }
        do {
            return try ClassTree(contentsOf: URL(fileURLWithPath: found))
        } catch let problem as ClassTreeError {
            throw error(key, .invalidValue(value: path, expected: "a valid class tree (\(problem))"))
        } catch {
            throw self.error(key, .invalidValue(value: path, expected: "a readable class tree (\(error))"))
        }
    }

    /// Where `tree=path` may be, in the order tried (see `classTree(_:)`).
    static func treeCandidates(_ path: String, cfg: String) -> [String] {
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
