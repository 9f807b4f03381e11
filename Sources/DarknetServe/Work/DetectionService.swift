import Darknet
import DarknetImage

/// The work for one request, in the pipeline's two stages: decode the image (or read the tensor)
/// and letterbox it; detect, and order the detections by confidence.
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

    /// A request's network input, ready for a worker.
    struct PreparedInput: Sendable {
        let input: PlanarImage
        let geometry: LetterboxGeometry
        /// The size of the image the request sent.
        let width: Int
        let height: Int
        let threshold: Float
    }

    /// A DeepStack request's image, decoded (in grey for a `channels=1` network, as AlexeyAB's
    /// darknet loads it) and letterboxed, at its `min_confidence`.
    func prepare(_ request: DetectionRequest, for model: ServedModel) throws(ServeError) -> PreparedInput {
        let image: PlanarImage
        do {
            image = model.detector.network.inputShape.channels == 1
                ? try PlanarImage(greyscaleData: Array(request.image), maxPixels: maxPixels)
                : try PlanarImage(data: Array(request.image), maxPixels: maxPixels)
        } catch {
            throw .badImage(error, filename: request.filename, bytes: request.image.count)
        }
        return try prepare(image, threshold: request.minimumConfidence ?? options.threshold, for: model)
    }

    /// A ZMQ tensor as a network input, at the server's threshold. A tensor of the network's
    /// input size (Frigate resized the frame already) goes in as it is; another is letterboxed.
    /// For a `channels=1` network the colour is converted to grey as a photo or a frame is
    /// (OpenCV's `cvtColor(COLOR_BGR2GRAY)` on the bytes; float elements are rounded to bytes first).
    func prepare(_ tensor: TensorRequest, for model: ServedModel) throws -> PreparedInput {
        let colour = try tensor.image(channelOrder: tensorChannelOrder, floatRange: tensorFloatRange)
        let image = model.detector.network.inputShape.channels == 1 ? colour.greyscaled() : colour
        return try prepare(image, threshold: options.threshold, for: model)
    }

    private func prepare(_ image: PlanarImage, threshold: Float, for model: ServedModel) throws(ServeError) -> PreparedInput {
        let input = model.detector.network.inputShape
        let prepared: (image: PlanarImage, geometry: LetterboxGeometry)
        if image.width == input.width, image.height == input.height, image.channels == input.channels {
            // Letterboxing to the same size would copy the pixels unchanged.
            prepared = (image, LetterboxGeometry(imageWidth: image.width, imageHeight: image.height,
                                                 networkWidth: input.width, networkHeight: input.height))
        } else {
            do {
                prepared = try model.detector.prepare(image, letterbox: options.letterbox)
            } catch {
                throw .inferenceFailed(String(describing: error))
            }
        }
        return PreparedInput(input: prepared.image, geometry: prepared.geometry, width: image.width, height: image.height,
                             threshold: threshold)
    }

    /// The detections in a prepared input, highest confidence first.
    func detect(_ prepared: PreparedInput, with model: ServedModel) throws(ServeError) -> Result {
        var options = options
        options.threshold = prepared.threshold
        options.order = .confidence
        let start = ContinuousClock.now
        let detections: [Detection]
        do {
            detections = try model.detector.detect(prepared: prepared.input, geometry: prepared.geometry, options: options)
        } catch {
            throw .inferenceFailed(String(describing: error))
        }
        return Result(detections: detections, width: prepared.width, height: prepared.height,
                      inferenceSeconds: start.duration(to: .now).seconds)
    }
}
