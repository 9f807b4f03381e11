import Darknet

/// Why a batch's inputs could not be listed.
public enum BatchInputError: DarknetError, Equatable {
    /// A directory given on the command line holds no image file.
    case noImages(directory: String, recursive: Bool)
    /// A directory could not be listed.
    case unreadableDirectory(directory: String)
    /// A list file could not be read.
    case unreadableList(path: String)
    /// A list names no image (only empty lines).
    case emptyList(path: String)

    public var description: String {
        switch self {
        case .noImages(let directory, let recursive):
            "\(directory): no image file (.jpg, .png, .heic, .bmp, .tif, .webp, .ppm, ...) in the directory" + (recursive ? " or below it" : " (--recursive descends)")
        case .unreadableDirectory(let directory): "\(directory): cannot list the directory"
        case .unreadableList(let path): "\(path): cannot read the list file"
        case .emptyList(let path): "\(path): the list names no image"
        }
    }
}
