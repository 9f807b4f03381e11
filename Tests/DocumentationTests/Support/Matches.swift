import Foundation

/// Each match of the regular expression `pattern` in `text`: the whole match, or the capture
/// group `group`.
func matches(_ pattern: String, in text: String, group: Int = 0) throws -> [String] {
    let expression = try NSRegularExpression(pattern: pattern)
    return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
        Range($0.range(at: group), in: text).map { String(text[$0]) }
    }
}
