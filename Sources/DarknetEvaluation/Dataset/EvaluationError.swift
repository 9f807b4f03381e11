import Darknet
import Foundation

/// Why a validation run could not start or go on: a `.data` file, image list or image whose
/// problem is not a malformed label line (`LabelFileError`) or an unreadable image (`ImageError`).
public enum EvaluationError: DarknetError, Equatable, Sendable {
    /// The `.data` file has no `key` (`valid`, which lists the images to score, or a
    /// classifier's `labels`, which an image's path is matched against).
    case missingKey(file: String, key: String)
    /// The image list names no image.
    case emptyList(file: String)
    /// A line of an image list names a file that exists in none of the places tried.
    case imageNotFound(list: String, line: Int, path: String, tried: [String])
    /// An image has no label file in any of the places Darknet looks (see `LabelPaths`).
    case labelsNotFound(image: String, tried: [String])
    /// `difficult=` lists another number of images than `valid=` (they go line by line).
    case difficultListMismatch(file: String, images: Int, expected: Int)
    /// `eval=` names a format this library does not write.
    case unsupportedEval(file: String, value: String)
    /// `eval=coco` maps COCO's 80 classes to their category ids; the network has `classes`.
    case cocoNeedsEightyClasses(classes: Int)
    /// An option outside its range (`name`, the value, what was expected).
    case invalidOption(name: String, value: String, expected: String)
    /// An output file could not be written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .missingKey(let file, let key) where key == "labels":
            "\(file): no 'labels=' line: it names the class labels (one a line) an image's path is matched against"
        case .missingKey(let file, let key):
            "\(file): no '\(key)=' line: it names the list of images to score (one path a line)"
        case .emptyList(let file): "\(file): the list names no image"
        case .imageNotFound(let list, let line, let path, let tried):
            "\(list):\(line): '\(path)' not found (tried \(tried.joined(separator: ", ")))"
        case .labelsNotFound(let image, let tried):
            "\(image): no label file (tried \(tried.joined(separator: ", "))); an image without objects needs an empty one"
        case .difficultListMismatch(let file, let images, let expected):
            "\(file): the difficult= list names \(images) images, valid= \(expected): they must go line by line"
        case .unsupportedEval(let file, let value):
            "\(file): 'eval': '\(value)' is not supported, expected voc or coco"
        case .cocoNeedsEightyClasses(let classes):
            "eval=coco writes COCO's category ids for its 80 classes, but the network has \(classes) classes"
        case .invalidOption(let name, let value, let expected): "\(name) is \(value), expected \(expected)"
        case .cannotWrite(let path, let reason): "\(path): cannot write (\(reason))"
        }
    }

}
