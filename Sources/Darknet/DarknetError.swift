import Foundation

/// An error this package throws. Its `description` is one line that names the file, line, byte
/// offset or argument at fault and what was expected, and `localizedDescription` is that same
/// line (not Foundation's "The operation could not be completed"). Catch it to tell this
/// package's errors from others.
public protocol DarknetError: Error, CustomStringConvertible, LocalizedError {}

extension DarknetError {
    public var errorDescription: String? { description }
}
