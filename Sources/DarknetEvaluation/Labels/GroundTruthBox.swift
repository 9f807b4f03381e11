import Darknet

/// One object of a YOLO label file: its class and box, relative to the image.
public struct GroundTruthBox: Sendable, Equatable {
    /// The class index (0-based, below the network's class count).
    public var classIndex: Int
    /// Centre and size as fractions of the image, as written in the file.
    public var box: RelativeBox
    /// 1-based line of the label file (0 for boxes made in code).
    public var line: Int

    public init(classIndex: Int, box: RelativeBox, line: Int = 0) {
        self.classIndex = classIndex
        self.box = box
        self.line = line
    }
}
