import Foundation

/// Small command-line helpers shared by `swift-darknet` and `darknet-bench`.
/// A command line split into `--option value` pairs, `--flag`s and positional arguments.
public struct Arguments {
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    public private(set) var positionals: [String] = []
    private var consumed: Set<String> = []

    /// Splits `arguments`; `flagNames` take no value, every other `--name` takes one.
    public init(_ arguments: [String], flagNames: Set<String>) throws(CLIError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    options[String(name[..<equals]), default: []].append(String(name[name.index(after: equals)...]))
                } else if flagNames.contains(name) {
                    flags.insert(name)
                } else {
                    guard let value = iterator.next() else { throw CLIError("--\(name) needs a value") }
                    options[name, default: []].append(value)
                }
            } else {
                positionals.append(argument)
            }
        }
    }

    /// The value of `--name` (the last, if given more than once).
    public mutating func string(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]?.last
    }

    /// Every value of `--name`, in order (empty if not given).
    public mutating func strings(_ name: String) -> [String] {
        consumed.insert(name)
        return options[name] ?? []
    }

    public mutating func required(_ name: String) throws(CLIError) -> String {
        guard let value = string(name) else { throw CLIError("missing --\(name)") }
        return value
    }

    public mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    public mutating func int(_ name: String, default value: Int, range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let text = string(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw CLIError("--\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    public mutating func float(_ name: String, default value: Float, range: ClosedRange<Float>) throws(CLIError) -> Float {
        guard let text = string(name) else { return value }
        guard let number = Float(text), range.contains(number) else {
            throw CLIError("--\(name) must be a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// Fails on options nobody asked for (typos must not pass silently).
    public func rejectUnknown() throws(CLIError) {
        let unknown = Set(options.keys).union(flags).subtracting(consumed)
        if let name = unknown.sorted().first { throw CLIError("unknown option --\(name)") }
    }
}

/// A usage or input problem reported by the command-line tool.
public struct CLIError: Error, CustomStringConvertible, LocalizedError {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}
