/// Typed, bookkeeping access to one section's keys.
///
/// Every read marks its key as understood; `unusedEntries` then names what nobody read.
/// The first occurrence of a repeated key wins, as in Darknet.
struct SectionReader {
    let file: String
    let section: CfgSection
    private var consumed: Set<String> = []
    /// Remarks reads made (a list read leniently).
    private var remarks: [CfgDiagnostic] = []

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
        return result + remarks
    }

    /// `anchors=`-style list of at least `count` numbers (AlexeyAB's `parse_yolo` and its
    /// relatives), every value written returned (callers decide about values past `count`).
    ///
    /// A plain comma-separated list must hold at least `count` numbers (fewer is most likely a
    /// mistake; AlexeyAB would use 0.5 for the missing ones). Any other list is read as
    /// AlexeyAB's parser reads it, with a remark naming the line: its `read_cfg` removes all
    /// whitespace (so `61,45  61,45` becomes `61`, `4561`, `45`), then C's `atof` reads the
    /// leading number of each comma-separated item, and values it does not find keep the
    /// layer's default of 0.5.
    /// - Throws: `CfgError` if the key is missing, or one of the first `count` items has no
    ///   leading finite number.
    mutating func anchors(count: Int, key: String = "anchors") throws(CfgError) -> [Float] {
        consumed.insert(key)
        guard let entry = entry(key) else { throw error(key, .missingKey) }
        let plain = listItems(entry.value).map { Float($0) }
        if !plain.isEmpty, plain.allSatisfy({ $0?.isFinite == true }) {
            let values = plain.map { $0! }
            if values.count >= count { return values }
            guard values.count % 2 == 0 else {
                throw error(key, .invalidValue(value: entry.value, expected: "an even count of numbers (width,height pairs)"))
            }
            throw error(key, .invalidValue(value: entry.value, expected: "num=\(count / 2) width,height pairs (\(count) numbers), found \(values.count)"))
        }
        let items = entry.value.filter { !$0.isWhitespace }.split(separator: ",", omittingEmptySubsequences: false)
        var values: [Float] = []
        for (i, item) in items.enumerated() {
            guard let value = Self.leadingNumber(item), value.isFinite else {
                // AlexeyAB never reads the items past `count`.
                if i >= count { break }
                throw error(key, .invalidValue(value: entry.value, expected: "a finite number"))
            }
            values.append(value)
        }
        if values.count < count { values += [Float](repeating: 0.5, count: count - values.count) }
        let read = values.map { $0 == $0.rounded() && abs($0) < 1e9 ? String(Int($0)) : String($0) }.joined(separator: ",")
        remark(key, line: entry.line, "whitespace removed, the leading number of each comma-separated item, missing values 0.5: \(read)")
        return values
    }

    /// Records a remark about `key`: a value read the lenient way AlexeyAB's Darknet reads it.
    mutating func remark(_ key: String, line: Int? = nil, _ explanation: String) {
        remarks.append(CfgDiagnostic(file: file, line: line ?? entry(key)?.line ?? section.line, key: key,
                                     section: section.name, kind: .readLeniently(explanation)))
    }

    /// The number C's `atof` reads at the start of `text` (decimal only; `nil` without digits),
    /// rounded to float from double as Darknet's assignment does.
    static func leadingNumber(_ text: Substring) -> Float? {
        let characters = Array(text)
        var end = 0, digits = 0
        if end < characters.count, characters[end] == "+" || characters[end] == "-" { end += 1 }
        while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1; digits += 1 }
        if end < characters.count, characters[end] == "." {
            end += 1
            while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        var mantissa = String(characters[..<end])
        if mantissa.hasSuffix(".") { mantissa += "0" }
        var exponent = ""
        if end < characters.count, characters[end] == "e" || characters[end] == "E" {
            var scan = end + 1
            if scan < characters.count, characters[scan] == "+" || characters[scan] == "-" { scan += 1 }
            let first = scan
            while scan < characters.count, characters[scan].isASCII, characters[scan].isNumber { scan += 1 }
            if scan > first { exponent = "e" + String(characters[(end + 1)..<scan]) }
        }
        return Double(mantissa + exponent).map { Float($0) }
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
