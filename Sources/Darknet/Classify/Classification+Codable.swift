/// `{"class", "label", "prob"}`, as `swift-darknet classify --json` prints a prediction
/// (`prob` is `probability`).
extension Classification: Codable {
    private enum CodingKeys: String, CodingKey { case classIndex = "class", label, probability = "prob" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(classIndex: try c.decode(Int.self, forKey: .classIndex), label: try c.decode(String.self, forKey: .label),
                  probability: try c.decode(Float.self, forKey: .probability))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(classIndex, forKey: .classIndex)
        try c.encode(label, forKey: .label)
        try c.encode(probability, forKey: .probability)
    }
}
