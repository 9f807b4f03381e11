/// One image's detections as the fixtures record Darknet's (`Tools/make-fixtures.sh`'s
/// `detect/*.jsonl`, `darknet yolo test`'s JSON) and as `swift-darknet detect --json` prints
/// them: the reference tier compares `Detector` with it, the command-line tier the tool.
public struct DarknetDetectionRecord: Decodable {
    public struct Item: Decodable {
        public let `class`: Int
        public let label: String
        public let prob: Float
        public let x: Int, y: Int, w: Int, h: Int
    }
    public let image: String
    public let width: Int
    public let height: Int
    public let detections: [Item]
}
