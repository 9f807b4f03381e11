/// Typed, bookkeeping access to one section's keys.
///
/// Every read marks its key as understood; `unusedEntries` then names what nobody read.
/// The first occurrence of a repeated key wins, as in Darknet.
struct SectionReader {
    let file: String
    let section: CfgSection
    private var consumed: Set<String> = []

    init(file: String, section: CfgSection) {
        self.file = file
        self.section = section
    }

    func entry(_ key: String) -> CfgEntry? {
        section.entries.first { $0.key == key }
    }

    func has(_ key: String) -> Bool { entry(key) != nil }

    func error(_ key: String?, _ reason: CfgError.Reason, line: Int? = nil) -> CfgError {
        CfgError(file: file, line: line ?? key.flatMap { entry($0)?.line } ?? section.line, key: key, reason: reason)
    }

    /// Reads an integer; `nil` if the key is absent.
    mutating func optionalInt(_ key: String) throws(CfgError) -> Int? {
        consumed.insert(key)
        guard let entry = entry(key) else { return nil }
        guard let value = Int32(entry.value) else {
            throw CfgError(file: file, line: entry.line, key: key, reason: .invalidValue(value: entry.value, expected: "a 32-bit integer"))
        }
        return Int(value)
    }

    mutating func int(_ key: String, default value: Int) throws(CfgError) -> Int {
        try optionalInt(key) ?? value
    }

    /// Reads an integer that must be at least `minimum`.
    mutating func int(_ key: String, default value: Int, minimum: Int) throws(CfgError) -> Int {
        let result = try int(key, default: value)
        guard result >= minimum else {
            throw error(key, .invalidValue(value: String(result), expected: "an integer >= \(minimum)"))
        }
        return result
    }

    mutating func requiredInt(_ key: String, minimum: Int) throws(CfgError) -> Int {
        guard has(key) else { throw error(key, .missingKey) }
        return try int(key, default: 0, minimum: minimum)
    }

    mutating func bool(_ key: String, default value: Bool) throws(CfgError) -> Bool {
        guard let number = try optionalInt(key) else { return value }
        guard number == 0 || number == 1 else {
            throw error(key, .invalidValue(value: String(number), expected: "0 or 1"))
        }
        return number == 1
    }

    mutating func float(_ key: String, default value: Float) throws(CfgError) -> Float {
        consumed.insert(key)
        guard let entry = entry(key) else { return value }
        return try parseFloat(entry.value, key: key, line: entry.line)
    }

    mutating func intList(_ key: String) throws(CfgError) -> [Int]? {
        consumed.insert(key)
        guard let entry = entry(key) else { return nil }
        var result: [Int] = []
        for item in listItems(entry.value) {
            guard let value = Int32(item).map(Int.init) else {
                throw CfgError(file: file, line: entry.line, key: key,
                               reason: .invalidValue(value: entry.value, expected: "a comma-separated list of integers"))
            }
            result.append(value)
        }
        guard !result.isEmpty else {
            throw CfgError(file: file, line: entry.line, key: key, reason: .invalidValue(value: entry.value, expected: "at least one integer"))
        }
        return result
    }

    mutating func floatList(_ key: String) throws(CfgError) -> [Float]? {
        consumed.insert(key)
        guard let entry = entry(key) else { return nil }
        var result: [Float] = []
        for item in listItems(entry.value) {
            result.append(try parseFloat(String(item), key: key, line: entry.line, whole: entry.value))
        }
        guard !result.isEmpty else {
            throw CfgError(file: file, line: entry.line, key: key, reason: .invalidValue(value: entry.value, expected: "at least one number"))
        }
        return result
    }

    mutating func activation(_ key: String, default value: Activation) throws(CfgError) -> Activation {
        consumed.insert(key)
        guard let entry = entry(key) else { return value }
        if Activation.crossChannelNames.contains(entry.value) {
            throw CfgError(file: file, line: entry.line, key: key,
                           reason: .unsupported("activation=\(entry.value) (normalises across channels, not element-wise)"))
        }
        guard let activation = Activation(rawValue: entry.value) else {
            let names = Activation.allCases.map(\.rawValue).joined(separator: ", ")
            throw CfgError(file: file, line: entry.line, key: key, reason: .invalidValue(value: entry.value, expected: "one of \(names)"))
        }
        return activation
    }

    /// Accepts a key whose value only matters for training.
    mutating func ignore(_ keys: Set<String>) { consumed.formUnion(keys) }

    /// Fails if `key` is present with a value other than `neutral` (a feature not implemented).
    mutating func requireNeutral(_ key: String, _ neutral: Float, feature: String) throws(CfgError) {
        let value = try float(key, default: neutral)
        guard value == neutral else { throw error(key, .unsupported(feature)) }
    }

    /// Entries no read asked for (first occurrence of each key) and repeated keys.
    func diagnostics() -> [CfgDiagnostic] {
        var seen: Set<String> = []
        var result: [CfgDiagnostic] = []
        for entry in section.entries {
            if seen.contains(entry.key) {
                result.append(CfgDiagnostic(file: file, line: entry.line, key: entry.key,
                                            section: section.name, kind: .repeatedKey))
            } else if !consumed.contains(entry.key) {
                result.append(CfgDiagnostic(file: file, line: entry.line, key: entry.key,
                                            section: section.name, kind: .unknownKey))
            }
            seen.insert(entry.key)
        }
        return result
    }

    private func listItems(_ value: String) -> [Substring] {
        value.split(separator: ",", omittingEmptySubsequences: true)
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
    }

    private func parseFloat(_ text: String, key: String, line: Int, whole: String? = nil) throws(CfgError) -> Float {
        guard let value = Float(text), value.isFinite else {
            throw CfgError(file: file, line: line, key: key, reason: .invalidValue(value: whole ?? text, expected: "a finite number"))
        }
        return value
    }
}
