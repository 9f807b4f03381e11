/// A label line that is scored but probably not what its author meant (Darknet scores it as
/// written, so this library does too, and says so).
public struct LabelWarning: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What is odd about the box.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The box reaches outside the image (an edge below 0 or above 1).
        case outsideImage = "outside_image"
        /// Zero width or height: no detection can overlap it, so it counts as missed.
        case empty
    }

    /// The label file.
    public let file: String
    /// 1-based line.
    public let line: Int
    public let kind: Kind

    public init(file: String, line: Int, kind: Kind) {
        self.file = file
        self.line = line
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .outsideImage: "\(file):\(line): the box reaches outside the image; scored as written"
        case .empty: "\(file):\(line): the box has zero width or height; it can only count as missed"
        }
    }
}
