import Foundation

/// A Darknet class hierarchy (a `.tree` file such as `data/9k.tree`, read by `read_tree`): one
/// line per class, `NAME PARENT` with `PARENT` the index of an earlier line or `-1` (a root).
///
/// Consecutive lines with the same parent form a *group*, in file order; group 0 is the first
/// run of lines. A softmax runs over each group (`TreeSoftmax`), and a class's probability is
/// the product of the probabilities on its path to the root.
///
/// Darknet accepts malformed files silently (a blank line becomes a nameless root, a parent that
/// is not an earlier line reads out of bounds, a parent whose children are split over two runs
/// keeps only the last run as its children); this parser rejects them with a ``ClassTreeError``.
public struct ClassTree: Sendable, Equatable {
    /// Class names (the first token of each line).
    public let names: [String]
    /// Each class's parent index, `-1` for a root.
    public let parents: [Int]
    /// Each class's group index.
    public let groupOfClass: [Int]
    /// The group holding each class's children, `-1` for a leaf.
    public let childGroup: [Int]
    /// Each group's classes (a contiguous range of class indices), in file order.
    public let groups: [Range<Int>]

    /// The number of classes.
    public var count: Int { names.count }

    /// Whether a class has no children (Darknet's `leaf`).
    public func isLeaf(_ index: Int) -> Bool { childGroup[index] < 0 }

    /// Reads a tree file.
    /// - Throws: `FileError` (missing or unreadable), `ClassTreeError`.
    public init(contentsOf url: URL) throws {
        try self.init(bytes: try readFile(url), file: url.path)
    }

    /// Parses tree text; `file` names it in errors.
    /// - Throws: `ClassTreeError`.
    public init(bytes: [UInt8], file: String) throws(ClassTreeError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ClassTreeError(file: file, line: nil, reason: .notText)
        }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        if lines.last?.isEmpty == true { lines.removeLast() }  // the final newline ends the last line
        var names: [String] = [], parents: [Int] = [], groupOfClass: [Int] = []
        var groups: [Range<Int>] = []
        var childGroup: [Int] = []
        var firstLineOfChildren: [Int: Int] = [:]   // parent -> line of its first child
        for (offset, whole) in lines.enumerated() {
            let number = offset + 1
            // Darknet reads each line as a C string: a NUL byte ends it (AlexeyAB's cfg/9k.tree pads
            // line 5804 with 1,000 of them).
            let line = whole.prefix { $0 != "\0" }
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let name = tokens.first else {
                throw ClassTreeError(file: file, line: number, reason: .emptyLine)
            }
            guard name.utf8.count < 256 else {
                throw ClassTreeError(file: file, line: number, reason: .nameTooLong(name.utf8.count))
            }
            var parent = -1
            if tokens.count > 1 {
                guard let value = Int(tokens[1]) else {
                    throw ClassTreeError(file: file, line: number, reason: .invalidParent(String(tokens[1])))
                }
                parent = value
            }
            let index = names.count
            guard parent >= -1, parent < index else {
                throw ClassTreeError(file: file, line: number, reason: .parentNotEarlier(parent: parent, index: index))
            }
            if index == 0 || parent != parents[index - 1] {
                // A new run of siblings starts a group.
                if parent >= 0, let earlier = firstLineOfChildren[parent] {
                    throw ClassTreeError(file: file, line: number,
                                         reason: .childrenNotContiguous(parent: parent, firstChildLine: earlier))
                }
                if parent >= 0 { firstLineOfChildren[parent] = number }
                groups.append(index..<index)
                if parent >= 0 { childGroup[parent] = groups.count - 1 }
            }
            groups[groups.count - 1] = groups[groups.count - 1].lowerBound..<(index + 1)
            names.append(String(name))
            parents.append(parent)
            groupOfClass.append(groups.count - 1)
            childGroup.append(-1)
        }
        guard !names.isEmpty else { throw ClassTreeError(file: file, line: nil, reason: .empty) }
        self.names = names
        self.parents = parents
        self.groupOfClass = groupOfClass
        self.childGroup = childGroup
        self.groups = groups
    }
}

/// Why a `.tree` file was rejected: the file, the line (1-based) and the reason.
public struct ClassTreeError: DarknetError, Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// The file is not UTF-8 text.
        case notText
        /// No class at all.
        case empty
        /// A blank line (Darknet would read it as a nameless root class).
        case emptyLine
        /// A name of this many bytes (Darknet reads names into a 256-byte buffer).
        case nameTooLong(Int)
        /// The second token is not an integer.
        case invalidParent(String)
        /// The parent is neither -1 nor the index of an earlier line.
        case parentNotEarlier(parent: Int, index: Int)
        /// The parent's children are split over two runs of lines (Darknet keeps only the last).
        case childrenNotContiguous(parent: Int, firstChildLine: Int)
    }

    public let file: String
    public let line: Int?
    public let reason: Reason

    public init(file: String, line: Int?, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        let what: String
        switch reason {
        case .notText: what = "not UTF-8 text"
        case .empty: what = "no classes: a tree file has one 'NAME PARENT' line per class"
        case .emptyLine: what = "empty line: expected 'NAME PARENT'"
        case .nameTooLong(let bytes): what = "class name of \(bytes) bytes, at most 255"
        case .invalidParent(let token): what = "parent '\(token)' is not an integer"
        case .parentNotEarlier(let parent, let index):
            what = "class \(index) has parent \(parent): expected -1 or the index of an earlier line (0..<\(index))"
        case .childrenNotContiguous(let parent, let firstChildLine):
            what = "the children of class \(parent) are not consecutive lines (the first is on line \(firstChildLine))"
        }
        return "\(place): \(what)"
    }
}

extension ClassTree: CustomStringConvertible {
    /// Its size, as `ClassTree(5 classes in 3 groups, 2 roots)`, not the names.
    public var description: String {
        let classes = counted(count, "class", "classes"), roots = counted(parents.filter { $0 < 0 }.count, "root")
        return "ClassTree(\(classes) in \(counted(groups.count, "group")), \(roots))"
    }
}
