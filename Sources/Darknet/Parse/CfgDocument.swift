/// One `key=value` line of a `.cfg` section.
public struct CfgEntry: Sendable, Equatable {
    /// The key, trimmed.
    public let key: String
    /// The value, trimmed (may be empty).
    public let value: String
    /// 1-based line number in the file.
    public let line: Int
}

/// One `[name]` section of a `.cfg` file with its entries in file order.
public struct CfgSection: Sendable, Equatable {
    /// The section name as written, without brackets (e.g. `conv`).
    public let name: String
    /// 1-based line number of the `[name]` header.
    public let line: Int
    /// The section's `key=value` lines in file order.
    public let entries: [CfgEntry]
}

/// A `.cfg` file split into sections, before any section is interpreted.
public struct CfgDocument: Sendable, Equatable {
    /// Name used in error messages (usually the file path).
    public let file: String
    /// The sections in file order.
    public let sections: [CfgSection]
}
