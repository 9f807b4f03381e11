/// A `WIDTHxHEIGHT` option value (`640x640`, `768X576`): two positive integers, or nil.
public func pixelSize(_ text: String) -> (width: Int, height: Int)? {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
    return (width, height)
}
