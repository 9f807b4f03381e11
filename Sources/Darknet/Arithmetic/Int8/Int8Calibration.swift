import Foundation

/// Activation ranges for an int8 network: for every `[convolutional]` layer, the smallest and
/// largest value its input took while the float network ran over calibration images, and the
/// 8-bit quantization that covers that range (`x = scale * (code - zeroPoint)`, codes 0...255,
/// 0.0 exact). Measured once by `init(network:images:)` (Arithmetic/Int8/Int8Calibration+Measure.swift), saved next to the model as a small JSON
/// sidecar (`write(to:)`, format below) and read back with `init(contentsOf:for:)`, so an app
/// calibrates once.
///
/// Method: per-tensor minimum and maximum over all images (widened to include 0), no
/// percentile clipping. YOLO's leaky activations have few outliers and a clipped maximum
/// saturates exactly the strong responses detection depends on.
///
/// Sidecar format (UTF-8 JSON, keys sorted):
///
///     {
///       "format": "swiftdarknet-int8-calibration",
///       "version": 1,
///       "cfg": "yolov3-tiny.cfg",            // the cfg's file name
///       "input": {"channels": 3, "height": 416, "width": 416},
///       "images": 12,                        // how many images were run
///       "method": "minmax",
///       "weights": {"bytes": 35434956,       // the weights' WeightsFingerprint (absent for
///                   "sample": "89d1c1f5ab0c1d2e"},   // random ones and older sidecars)
///       "layers": [                          // one per [convolutional] layer, in order
///         {"layer": 0, "input": {"channels": 3, "height": 416, "width": 416},
///          "minimum": 0, "maximum": 1, "scale": 0.0039215689, "zeroPoint": 0},
///         ...
///       ]
///     }
///
/// A sidecar is accepted only for a cfg with the same file name, input size and convolution
/// input shapes (`Int8CalibrationError.mismatch` otherwise), and a network loads it only with
/// the weights it was made with, where it records them (`Int8CalibrationError.otherWeights`).
/// Version 1 readers ignore the `weights` key.
public struct Int8Calibration: Sendable, Equatable {
    /// The sidecar format version this library writes and reads.
    public static let formatVersion = 1
    static let formatName = "swiftdarknet-int8-calibration"

    /// One convolution's input range.
    public struct Layer: Sendable, Equatable {
        /// The convolution's layer index.
        public let layer: Int
        /// The shape of the tensor it reads.
        public let input: TensorShape
        /// Smallest and largest value seen.
        public let minimum, maximum: Float
        /// Real value of one code step.
        public let scale: Float
        /// The code of 0.0 (0...255).
        public let zeroPoint: Int

        /// A layer's entry with the quantization covering `[minimum, maximum]` (and 0).
        public init(layer: Int, input: TensorShape, minimum: Float, maximum: Float) {
            let quantization = Int8TensorQuantization(minimum: minimum, maximum: maximum)
            self.init(layer: layer, input: input, minimum: minimum, maximum: maximum, scale: quantization.scale,
                      zeroPoint: Int(quantization.zeroPoint))
        }

        init(layer: Int, input: TensorShape, minimum: Float, maximum: Float, scale: Float, zeroPoint: Int) {
            self.layer = layer
            self.input = input
            self.minimum = minimum
            self.maximum = maximum
            self.scale = scale
            self.zeroPoint = zeroPoint
        }

        var quantization: Int8TensorQuantization { Int8TensorQuantization(scale: scale, zeroPoint: Int32(zeroPoint)) }
    }

    /// The cfg's file name (no folders).
    public let cfg: String
    /// The network input the images were letterboxed to.
    public let inputShape: TensorShape
    /// How many images the ranges come from.
    public let imageCount: Int
    /// One entry per convolutional layer, in layer order.
    public let layers: [Layer]
    /// The weights the ranges were measured with (nil: not recorded, any weights are taken).
    public let weights: WeightsFingerprint?

    /// A calibration from ranges already measured (with `weights`, only those weights take it).
    public init(cfg: String, inputShape: TensorShape, imageCount: Int, layers: [Layer], weights: WeightsFingerprint? = nil) {
        self.cfg = cfg
        self.inputShape = inputShape
        self.imageCount = imageCount
        self.layers = layers
        self.weights = weights
    }

    /// The entry of layer `index`, if it has one.
    public func layer(_ index: Int) -> Layer? { layers.first { $0.layer == index } }

    /// Why this calibration does not fit `plan` (nil when it does): another input size, or a
    /// convolution without an entry or with another input shape.
    func mismatch(with plan: NetworkPlan) -> String? {
        guard inputShape == plan.inputShape else {
            return "calibrated for a \(inputShape) input, the network takes \(plan.inputShape)"
        }
        for layer in plan.layers {
            guard case .convolutional = layer.spec.kind else {
                if self.layer(layer.index) != nil { return "layer \(layer.index) is not a convolution" }
                continue
            }
            guard let entry = self.layer(layer.index) else { return "no entry for convolutional layer \(layer.index)" }
            guard entry.input == layer.inputShape else {
                return "layer \(layer.index) was calibrated for a \(entry.input) input, it reads \(layer.inputShape)"
            }
        }
        return nil
    }
}

/// Why an int8 calibration could not be made, read or used.
public enum Int8CalibrationError: DarknetError, Equatable, Sendable {
    /// No calibration images were given.
    case noImages
    /// The calibration folder holds no `.jpg`, `.jpeg` or `.png` file.
    case noImagesInFolder(String)
    /// A calibration image has another channel count than the network input.
    case channelMismatch(expected: Int, actual: Int)
    /// A convolution's input held NaN or an infinity while calibrating.
    case notFinite(layer: Int)
    /// A calibration image could not be read (`reason` from the decoder).
    case unreadableImage(file: String, reason: String)
    /// The sidecar is not a calibration this library reads (`reason`: the JSON error, or the
    /// format or version found).
    case unreadable(file: String, reason: String)
    /// The sidecar was made for another network (`reason` says how it differs).
    case mismatch(file: String, reason: String)
    /// A network was loaded from `weightsFile` with a calibration made with other weights.
    case otherWeights(weightsFile: String, calibrated: WeightsFingerprint, loaded: WeightsFingerprint)

    public var description: String {
        switch self {
        case .noImages: "int8 calibration needs at least one image"
        case .noImagesInFolder(let folder): "\(folder): no image file (.jpg, .png, .heic, .bmp, .tif, .webp, .ppm, ...) to calibrate int8 on"
        case .channelMismatch(let expected, let actual):
            "a calibration image has \(actual) channels, the network expects \(expected)"
        case .notFinite(let layer): "calibration: the input of layer \(layer) is not finite"
        case .unreadableImage(let file, let reason): "\(file): cannot read calibration image: \(reason)"
        case .unreadable(let file, let reason): "\(file): not an int8 calibration file: \(reason)"
        case .mismatch(let file, let reason): "\(file): calibration does not match the network: \(reason)"
        case .otherWeights(let file, let calibrated, let loaded):
            "\(file): the int8 calibration was made with other weights (\(calibrated); these: \(loaded)); calibrate again with these weights"
        }
    }
}
