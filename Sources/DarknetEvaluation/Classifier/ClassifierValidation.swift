import Darknet
import DarknetImage
import Foundation

/// `darknet classifier valid` (pjreddie's `validate_classifier_single`): a classifier scored on
/// the `.data` file's `valid=` images, each image's class found from its path.
///
/// - `labels=` lists the classes (ImageNet's `n01440764`...); an image's class is the first of
///   the first `classes=` labels its path, as the list writes it, contains (none: a miss).
/// - Each image's largest centred square is resized to the network's size
///   (`PlanarImage.centreCropped`), where `classify` letterboxes.
/// - The first `classes=` scores (2 without the key, as Darknet) are ranked; `top=` (1 without
///   it) of them count for the top-k accuracy.
///
/// Relative paths are found where `ValidationSet` finds them. Darknet's `leaves=` (a hierarchy's
/// leaves changed for scoring) is refused rather than ignored.
public struct ClassifierValidation: Sendable {
    /// One image: its path as the list writes it, the file found for it, and its class.
    public struct ListedImage: Sendable, Equatable {
        /// The line of the list: what the labels are matched against, and what Darknet prints.
        public let listed: String
        /// The file found for it.
        public let path: String
        /// The index of the first label `listed` contains; nil for none.
        public let truth: Int?
    }

    /// The `.data` file.
    public let data: DataFile
    /// `labels=`, one class a line.
    public let labels: [String]
    /// `classes=`, or 2 without it.
    public let classes: Int
    /// The images in list order.
    public let images: [ListedImage]

    /// Reads `data` and the lists it names.
    /// - Throws: `FileError`, `DataFileError`, `EvaluationError`.
    public init(data url: URL, workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws {
        let data = try DataFile(contentsOf: url, workingDirectory: workingDirectory)
        if let leaves = data.values["leaves"] {
            throw DataFileError(file: data.path, line: data.line(of: "leaves"), key: "leaves",
                                reason: .invalidValue(value: leaves, expected: "no leaves= (changing a hierarchy's leaves is not supported)"))
        }
        guard data.values["valid"].map({ !$0.isEmpty }) ?? false else { throw EvaluationError.missingKey(file: data.path, key: "valid") }
        guard let labelsFile = try data.file(forKey: "labels", workingDirectory: workingDirectory) else {
            throw EvaluationError.missingKey(file: data.path, key: "labels")
        }
        let labels = try ClassLabels.read(labelsFile)
        let classes = data.classes ?? 2
        guard labels.count >= classes else {
            throw DataFileError(file: data.path, line: data.line(of: "classes"), key: "classes", reason: .invalidValue(
                value: String(classes), expected: "at most the \(labels.count) labels of \(labelsFile.path)"))
        }
        self.data = data
        self.labels = labels
        self.classes = classes
        let candidates = Array(labels.prefix(classes))
        images = try ValidationSet.imageList(data, key: "valid", workingDirectory: workingDirectory) {
            FileManager.default.fileExists(atPath: $0)
        }.map { image in
            ListedImage(listed: image.written, path: image.found, truth: candidates.firstIndex { image.written.contains($0) })
        }
    }

    /// `top=`, or 1 without it.
    public var top: Int { data.top ?? 1 }

    /// Scores `classifier` on every image in order, reporting the tally after each image to
    /// `progress` with the image and the scores of classes 0 and 1 (Debian's Darknet prints
    /// them). The tally's `k` is `top` unless `k` is given.
    /// - Throws: an image that cannot be read (`FileError`, `ImageFileError`), a network whose
    ///   outputs are fewer than `classes` (`DataFileError`), a forward pass's error.
    public func run(_ classifier: Classifier, k: Int? = nil,
                    progress: (ListedImage, [Float], ClassifierAccuracy) -> Void = { _, _, _ in }) throws -> ClassifierAccuracy {
        let outputs = classifier.network.plan.layers[classifier.outputLayer].outputShape.count
        guard classes <= outputs else {
            throw DataFileError(file: data.path, line: data.line(of: "classes"), key: "classes", reason: .classCountMismatch(
                classes: classes, cfg: classifier.network.plan.file, networkClasses: outputs, what: "outputs"))
        }
        let shape = classifier.network.inputShape
        var tally = ClassifierAccuracy(k: k ?? top)
        for image in images {
            let input = try PlanarImage(contentsOf: URL(fileURLWithPath: image.path)).centreCropped(width: shape.width, height: shape.height)
            let scores = try classifier.scores(forInput: input)
            let ranked = scores.prefix(classes).withUnsafeBufferPointer { Classifier.topK($0, count: tally.k) }
            tally.record(truth: image.truth, ranked: ranked)
            progress(image, Array(scores.prefix(2)), tally)
        }
        return tally
    }
}
