/// A command's help, written from its declarations: the synopsis (required options, `[options]`,
/// the operands), a description, and every option by group with its placeholder, help and
/// default.
public struct CommandHelp: Sendable {
    /// The tool and command (`swift-darknet detect`).
    public let command: String
    /// The operands after the options (`IMAGE_OR_DIR...`), empty for none.
    public let operands: String
    /// Lines shown between the synopsis and the options.
    public let description: String
    public let groups: [OptionGroup]

    public init(command: String, operands: String = "", description: String = "", groups: [OptionGroup]) {
        self.command = command
        self.operands = operands
        self.description = description
        self.groups = groups
    }

    /// Every declared option.
    public var options: [Option] { groups.flatMap(\.options) }

    /// `usage: swift-darknet detect --cfg FILE|URL --weights FILE|URL [options] IMAGE_OR_DIR...`
    public var synopsis: String {
        let required = options.filter(\.isRequired).map(\.signature)
        let optional = options.contains { !$0.isRequired } ? ["[options]"] : []
        return (["usage: \(command)"] + required + optional + (operands.isEmpty ? [] : [operands])).joined(separator: " ")
    }

    /// The whole help.
    public var text: String {
        var lines = [synopsis]
        if !description.isEmpty { lines += [""] + description.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 } }
        let width = OptionGroup.columnWidth(of: options)
        for group in groups where !group.options.isEmpty {
            lines += ["", group.title + ":"] + group.lines(width: width)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension OptionGroup {
    /// The width of the option column for `options` in a help.
    static func columnWidth(of options: [Option]) -> Int { min(30, (options.map(\.signature.count).max() ?? 0) + 2) }

    /// The help's lines for these options: each signature, its help lines beside it (below it
    /// when the signature is wider than `width`), its default on its last line.
    func lines(width: Int) -> [String] {
        var lines: [String] = []
        for option in options {
            var help = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let value = option.defaultValue { help[help.count - 1] += " (default \(value))" }
            let indent = "  " + String(repeating: " ", count: width), signature = option.signature
            if signature.count + 2 > width {
                lines += ["  " + signature] + help.map { indent + $0 }
            } else {
                lines += ["  " + signature.padding(toLength: width, withPad: " ", startingAt: 0) + help[0]]
                    + help.dropFirst().map { indent + $0 }
            }
        }
        return lines
    }

    /// These options' help lines on their own (for a tool whose help is written by hand).
    public var text: String { lines(width: Self.columnWidth(of: options)).joined(separator: "\n") }
}

/// The declared name closest to `name` by edit distance, if close enough to be a likely typo
/// (at most a third of the name's letters, and at least 1, changed).
public func nearestName(to name: String, among names: [String]) -> String? {
    let limit = max(1, name.count / 3)
    let scored = names.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= limit }
    return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
}

/// Levenshtein distance (insertions, deletions and substitutions of characters).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
