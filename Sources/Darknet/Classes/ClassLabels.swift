import Foundation

/// Class names as Darknet's `.names` files hold them, for detectors and classifiers alike.
public enum ClassLabels {
    /// Reads a Darknet names file: one label per line (a final newline adds no label), each line
    /// trimmed of surrounding white space.
    /// - Throws: `FileError` when the file cannot be read or is not UTF-8 text.
    public static func read(_ url: URL) throws -> [String] {
        let bytes = try readFile(url)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let instead = FileSignature.guess(bytes).map { ": not a names file but \($0)" } ?? ""
            throw FileError(path: url.path, reason: "not UTF-8 text" + instead)
        }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimmingWhitespace() }.map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
