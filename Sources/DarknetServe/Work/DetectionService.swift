import Darknet
import DarknetImage

/// The work a worker does for one request: decode the image (or read the tensor), detect,
/// and order the detections by confidence.
struct DetectionService: Sendable {
    /// Largest `width * height` decoded.
    let maxPixels: Int
    /// The server's detection options; `threshold` is the default `min_confidence`.
    let options: DetectionOptions
    let tensorChannelOrder: TensorChannelOrder
    let tensorFloatRange: TensorFloatRange

    /// Detections (highest confidence first) and the seconds the detection itself took.
    struct Result: Sendable {
        let detections: [Detection]
        let width: Int
        let height: Int
        let inferenceSeconds: Double
    }

    /// The detections in a DeepStack request's image at its `min_confidence`.
    func detect(_ request: DetectionRequest, with model: ServedModel) throws(ServeError) -> Result {
        let image: PlanarImage
        do {
            image = try PlanarImage(data: Array(request.image), maxPixels: maxPixels)
        } catch {
            throw .badImage(error, filename: request.filename, bytes: request.image.count)
        }
        return try detect(image, threshold: request.minimumConfidence ?? options.threshold, with: model)
    }

    /// The detections in a ZMQ tensor, at the server's threshold. A tensor of the network's
    /// input size (Frigate resized the frame already) goes in as it is; another is letterboxed.
    func detect(_ tensor: TensorRequest, with model: ServedModel) throws -> Result {
        let image = try tensor.image(channelOrder: tensorChannelOrder, floatRange: tensorFloatRange)
        return try detect(image, threshold: options.threshold, with: model)
    }

    private func detect(_ image: PlanarImage, threshold: Float, with model: ServedModel) throws(ServeError) -> Result {
        var options = options
        options.threshold = threshold
        options.order = .confidence
        let start = ContinuousClock.now
        let detections: [Detection]
        let input = model.detector.network.inputShape
        do {
            if image.width == input.width, image.height == input.height, image.channels == input.channels {
                // Letterboxing to the same size would copy the pixels unchanged.
                let geometry = LetterboxGeometry(imageWidth: image.width, imageHeight: image.height,
                                                 networkWidth: input.width, networkHeight: input.height)
                detections = try model.detector.detect(prepared: image, geometry: geometry, options: options)
            } else {
                detections = try model.detector.detect(image, options: options)
            }
        } catch {
            throw .inferenceFailed(String(describing: error))
        }
        return Result(detections: detections, width: image.width, height: image.height,
                      inferenceSeconds: start.duration(to: .now).seconds)
    }
}
