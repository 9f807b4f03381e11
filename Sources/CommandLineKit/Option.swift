/// One command-line option, declared once: its name, whether it takes a value, its default and
/// its help. `Arguments` parses against the declarations (an undeclared name is a usage mistake
/// whatever follows it) and `CommandHelp` writes the help from them.
public struct Option: Sendable, Hashable {
    /// An option is a flag (on when given) or takes a value.
    public enum Kind: Sendable, Hashable {
        case flag
        /// `placeholder` names the value in the help (`FILE`, `0.5`, `auto|WxH`).
        case value(placeholder: String)
    }

    public let name: String
    public let kind: Kind
    /// The default a value takes when the option is not given, as the help shows it and the
    /// typed getters read it (nil: none).
    public let defaultValue: String?
    /// Whether the command needs it (shown in the synopsis).
    public let isRequired: Bool
    /// One or more lines of help, without the option's name.
    public let help: String

    /// An on/off option.
    public static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, kind: .flag, defaultValue: nil, isRequired: false, help: help)
    }

    /// An option that takes a value.
    public static func value(_ name: String, _ placeholder: String, default defaultValue: String? = nil,
                             required: Bool = false, _ help: String) -> Option {
        Option(name: name, kind: .value(placeholder: placeholder), defaultValue: defaultValue, isRequired: required,
               help: help)
    }

    public var isFlag: Bool { kind == .flag }

    /// `--name` or `--name PLACEHOLDER`.
    public var signature: String {
        switch kind {
        case .flag: "--\(name)"
        case .value(let placeholder): "--\(name) \(placeholder)"
        }
    }
}

/// Options that go together (the model files, the plan flags, tiling, ...), with a title for
/// the help.
public struct OptionGroup: Sendable {
    public let title: String
    public let options: [Option]

    public init(_ title: String, _ options: [Option]) {
        self.title = title
        self.options = options
    }
}
