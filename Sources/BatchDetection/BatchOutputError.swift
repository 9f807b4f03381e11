import Darknet

/// Why a batch's output could not be written.
public enum BatchOutputError: DarknetError, Equatable {
    /// A file could not be created or written.
    case cannotWrite(path: String)
    /// The label file would replace the image itself (an image named `*.txt`).
    case labelWouldReplaceImage(path: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path): "\(path): cannot write the file"
        case .labelWouldReplaceImage(let path): "\(path): the label file would replace the image (it ends in .txt)"
        }
    }
}
