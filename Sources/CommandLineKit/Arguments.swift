import Foundation

/// Small command-line helpers shared by `swift-darknet` and `darknet-bench`.
/// A command line split into `--option value` pairs, `--flag`s and positional arguments.
public struct Arguments {
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    public private(set) var positionals: [String] = []
    private var consumed: Set<String> = []
    /// The options `takeLeadingOperands` gave an operand to (Darknet's form of the command line).
    public private(set) var optionsByPosition: Set<String> = []
    /// The declared options, by name (nil: any `--name` is taken, `init(_:flagNames:)`).
    private var declared: [String: Option]?

    /// Splits `arguments` against the declared `options`: an undeclared `--name` is a usage
    /// mistake, named as such (with the nearest declared name) whatever follows it, so a
    /// misspelt flag never swallows the next word; a flag given a value (`--json=1`) and a value
    /// option without one are mistakes too.
    public init(_ arguments: [String], options declarations: [Option]) throws(CLIError) {
        var declared: [String: Option] = [:]
        for option in declarations { declared[option.name] = option }
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if let mistake = Self.singleDashMistake(argument, declared: declared) { throw mistake }
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            let text = String(argument.dropFirst(2))
            let name = text.firstIndex(of: "=").map { String(text[..<$0]) } ?? text
            guard let option = declared[name] else {
                let suggestion = nearestName(to: name, among: Array(declared.keys)).map { " (did you mean --\($0)?)" } ?? ""
                throw CLIError("unknown option --\(name)\(suggestion)")
            }
            if let equals = text.firstIndex(of: "=") {
                guard !option.isFlag else { throw CLIError("--\(name) is a flag and takes no value") }
                options[name, default: []].append(String(text[text.index(after: equals)...]))
            } else if option.isFlag {
                flags.insert(name)
            } else {
                guard let value = iterator.next() else { throw CLIError("--\(name) needs a value") }
                options[name, default: []].append(value)
            }
        }
        self.declared = declared
    }

    /// A word like `-thresh` or `-dont_show` (Darknet's own option style) where an operand is
    /// expected: a usage mistake naming the two-dash option it most likely means, never an operand
    /// (a file called `-x` can be given as `./-x`). `-` alone and negative numbers stay operands.
    private static func singleDashMistake(_ argument: String, declared: [String: Option]) -> CLIError? {
        guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.dropFirst().first?.isLetter == true else {
            return nil
        }
        let name = String(argument.dropFirst())
        let spelt = name.replacingOccurrences(of: "_", with: "-")
        let nearest = declared[spelt] != nil ? spelt : nearestName(to: spelt, among: Array(declared.keys))
        guard let nearest else { return CLIError("unknown option \(argument) (options start with --)") }
        return CLIError("unknown option \(argument) (did you mean --\(nearest)?)")
    }

    /// Gives leading operands to options by their file's ending, in `order`, as Darknet's
    /// commands take their files by position (`detect yolov3.cfg yolov3.weights dog.jpg`): while
    /// the first operand ends in the next entry's `suffix` (ignoring case, and a URL's query) and
    /// that option is declared and not given, the operand becomes its value. An entry whose
    /// option is given or whose suffix does not match is passed over.
    public mutating func takeLeadingOperands(_ order: [(option: String, suffix: String)]) {
        for (option, suffix) in order {
            guard let operand = positionals.first, declared?[option] != nil, options[option] == nil,
                  Self.path(of: operand).lowercased().hasSuffix(suffix.lowercased()) else { continue }
            options[option] = [operand]
            optionsByPosition.insert(option)
            positionals.removeFirst()
        }
    }

    /// An operand without a URL's query or fragment.
    private static func path(of operand: String) -> String {
        guard operand.contains("://"), let end = operand.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return operand }
        return String(operand[..<end])
    }

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
        checkDeclared(name)
        consumed.insert(name)
        return options[name]?.last
    }

    /// The value of `--name`, or its declared default.
    public mutating func stringOrDefault(_ name: String) -> String? {
        string(name) ?? declared?[name]?.defaultValue
    }

    /// Reading an option the command did not declare is a programmer's mistake.
    private func checkDeclared(_ name: String) {
        if let declared { precondition(declared[name] != nil, "option --\(name) is read but not declared") }
    }

    /// The declared default of `--name`, as a number.
    private func declaredDefault<T: LosslessStringConvertible>(_ name: String) -> T {
        guard let text = declared?[name]?.defaultValue, let value = T(text) else {
            preconditionFailure("option --\(name) has no numeric default declared")
        }
        return value
    }

    /// An integer option with its declared default.
    public mutating func int(_ name: String, range: ClosedRange<Int>) throws(CLIError) -> Int {
        try int(name, default: declaredDefault(name), range: range)
    }

    /// A number option with its declared default.
    public mutating func float(_ name: String, range: ClosedRange<Float>) throws(CLIError) -> Float {
        try float(name, default: declaredDefault(name), range: range)
    }

    /// Every value of `--name`, in order (empty if not given).
    public mutating func strings(_ name: String) -> [String] {
        checkDeclared(name)
        consumed.insert(name)
        return options[name] ?? []
    }

    /// Every `--name KEY=VALUE` given, as a dictionary (a later key wins); `example` shows the
    /// form in the error for a value without `=` or without a key.
    public mutating func keyValues(_ name: String, example: String) throws(CLIError) -> [String: String] {
        var pairs: [String: String] = [:]
        for item in strings(name) {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw CLIError("--\(name) takes KEY=VALUE (\(example)), got '\(item)'")
            }
            pairs[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return pairs
    }

    public mutating func required(_ name: String) throws(CLIError) -> String {
        guard let value = string(name) else { throw CLIError("missing --\(name)") }
        return value
    }

    public mutating func flag(_ name: String) -> Bool {
        checkDeclared(name)
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

    /// Fails on options nobody asked for (typos must not pass silently; with declared options,
    /// an option given that the command did not read is a programmer's mistake, as an option
    /// that does not apply here would be a silent one).
    public func rejectUnknown() throws(CLIError) {
        let unknown = Set(options.keys).union(flags).subtracting(consumed)
        guard let name = unknown.sorted().first else { return }
        if declared != nil { throw CLIError("--\(name) does not apply here") }
        throw CLIError("unknown option --\(name)")
    }
}

/// A usage or input problem reported by the command-line tool.
public struct CLIError: Error, CustomStringConvertible, LocalizedError {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}
