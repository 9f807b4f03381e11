// The JSON of detection results: the fields `swift-darknet detect --json` prints, under its
// names, then what makes the encoding lossless.

/// `{"x", "y", "w", "h"}`: the left and top edges and the size, as Darknet's JSON-style output
/// and `swift-darknet detect --json` report a box (`w = right - left`).
extension PixelRect: Codable {
    private enum CodingKeys: String, CodingKey { case x, y, w, h }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let left = try c.decode(Int.self, forKey: .x), top = try c.decode(Int.self, forKey: .y)
        self.init(left: left, top: top, right: left + (try c.decode(Int.self, forKey: .w)),
                  bottom: top + (try c.decode(Int.self, forKey: .h)))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(left, forKey: .x)
        try c.encode(top, forKey: .y)
        try c.encode(width, forKey: .w)
        try c.encode(height, forKey: .h)
    }
}

/// `{"x", "y", "w", "h"}`: centre and size, the fields `RelativeBox` and `BoxUncertainty` share.
private struct CentreAndSize: Codable {
    var x, y, w, h: Float
}

/// `{"x", "y", "w", "h"}`: centre and size, fractions of the image.
extension RelativeBox: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try CentreAndSize(from: decoder)
        self.init(x: fields.x, y: fields.y, width: fields.w, height: fields.h)
    }

    public func encode(to encoder: any Encoder) throws {
        try CentreAndSize(x: x, y: y, w: width, h: height).encode(to: encoder)
    }
}

/// `{"x", "y", "w", "h"}`, as `RelativeBox`.
extension BoxUncertainty: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try CentreAndSize(from: decoder)
        self.init(x: fields.x, y: fields.y, width: fields.w, height: fields.h)
    }

    public func encode(to encoder: any Encoder) throws {
        try CentreAndSize(x: x, y: y, w: width, h: height).encode(to: encoder)
    }
}

/// `{"class", "label", "prob", "x", "y", "w", "h", "objectness", "box", "uncertainty"}`: first
/// the object `swift-darknet detect --json` prints for a detection (`prob` is `confidence`,
/// `x y w h` the pixel `rect`), then the objectness, the relative `box` and, for Gaussian YOLO
/// heads only, the `uncertainty`.
extension Detection: Codable {
    enum CodingKeys: String, CodingKey {
        case classIndex = "class", label, confidence = "prob", x, y, w, h, objectness, box, uncertainty
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(classIndex: try c.decode(Int.self, forKey: .classIndex), label: try c.decode(String.self, forKey: .label),
                  confidence: try c.decode(Float.self, forKey: .confidence),
                  objectness: try c.decode(Float.self, forKey: .objectness), box: try c.decode(RelativeBox.self, forKey: .box),
                  rect: try PixelRect(from: decoder), uncertainty: try c.decodeIfPresent(BoxUncertainty.self, forKey: .uncertainty))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try encodeReported(rect: rect, into: &c)
        try c.encode(objectness, forKey: .objectness)
        try c.encode(box, forKey: .box)
        try c.encodeIfPresent(uncertainty, forKey: .uncertainty)
    }

    /// The fields the command line prints, with `rect` as the box.
    func encodeReported(rect: PixelRect, into c: inout KeyedEncodingContainer<CodingKeys>) throws {
        try c.encode(classIndex, forKey: .classIndex)
        try c.encode(label, forKey: .label)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(rect.left, forKey: .x)
        try c.encode(rect.top, forKey: .y)
        try c.encode(rect.width, forKey: .w)
        try c.encode(rect.height, forKey: .h)
    }
}
