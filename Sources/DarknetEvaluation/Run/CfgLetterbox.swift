import Darknet
import Foundation

/// Whether AlexeyAB's tools letterbox a network's images: `letter_box=1` in the cfg's `[net]`
/// section (a training key the library otherwise ignores); they stretch them without it.
public enum CfgLetterbox {
    /// `letter_box` of `cfg`'s first section (its first occurrence, as Darknet's `option_find`
    /// takes it), read as C's `atoi` reads it (non-zero: on).
    /// - Throws: `FileError`, `CfgError`.
    public static func read(_ cfg: URL) throws -> Bool {
        let document = try CfgParser.parse(bytes: try FileError.contents(of: cfg), file: cfg.path)
        guard let value = document.sections.first?.entries.first(where: { $0.key == "letter_box" })?.value else { return false }
        let digits = value.drop { $0 == " " }.prefix { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") }
        return (Int(digits) ?? 0) != 0
    }
}
