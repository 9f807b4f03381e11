/// An argument outside the values an API accepts (a thread count of 0, a frame stride of -1),
/// named as the API names it. Thrown instead of silently clamping the value.
public struct ArgumentError: DarknetError, Equatable, Sendable {
    /// The argument or option, as the API spells it (`threads`, `FramePolicy.stride`).
    public let argument: String
    /// The value given, as text.
    public let value: String
    /// What would have been accepted (`an integer >= 1`).
    public let expected: String

    /// An error about `argument`.
    public init(argument: String, value: String, expected: String) {
        self.argument = argument
        self.value = value
        self.expected = expected
    }

    /// `'threads': invalid value 0, expected an integer >= 1`.
    public var description: String { "'\(argument)': invalid value \(value), expected \(expected)" }

    /// Throws unless `value >= minimum`.
    package static func require(_ argument: String, _ value: Int, atLeast minimum: Int) throws(ArgumentError) {
        try require(value >= minimum, argument, value, expected: "an integer >= \(minimum)")
    }

    /// Throws unless `accepted`, naming `value` and what was `expected`.
    package static func require(_ accepted: Bool, _ argument: String, _ value: some CustomStringConvertible,
                                expected: String) throws(ArgumentError) {
        guard accepted else { throw ArgumentError(argument: argument, value: value.description, expected: expected) }
    }
}
