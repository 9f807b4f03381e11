/// A `DetectionPipeline`'s frames: letterboxed (or stretched) into the detector's input, then
/// the forward pass, decoding and NMS, and tracking when on. With tiling the forward thread
/// takes each frame whole and the detector runs its tiles.
final class DetectionWork: PipelineWork, @unchecked Sendable {
    // Invariant: `tracker` is used by the forward thread only.
    let detector: Detector
    let options: DetectionOptions
    private var tracker: ObjectTracker?

    init(detector: Detector, options: DetectionOptions, tracker: ObjectTracker?) {
        self.detector = detector
        self.options = options
        self.tracker = tracker
    }

    var inputCount: Int { detector.network.inputShape.count }
    var fitsFrames: Bool { options.tiling == nil }
    var stopped: any Error { DetectionPipeline.Stopped() }

    func validate() throws { try options.validate() }

    func fit(_ pixels: PixelBuffer, into input: UnsafeMutableBufferPointer<Float>) throws -> LetterboxGeometry {
        try detector.prepareInput(pixels, letterbox: options.letterbox, into: input)
    }

    func takeSession() -> PooledSession { detector.runner.pool.take() }
    func giveBack(_ session: PooledSession) { detector.runner.pool.give(session) }

    func run(_ input: PipelineInput, index: Int, session: PooledSession?,
             now: () -> ContinuousClock.Instant) throws -> (output: ([Detection], [TrackedDetection]), forwarded: ContinuousClock.Instant) {
        let detections: [Detection], forwarded: ContinuousClock.Instant, width: Int, height: Int
        switch input {
        case .fitted(let input, let geometry):
            let session = session!.session  // held whenever frames are fitted here (no tiling)
            try session.forward(input)
            forwarded = now()
            detections = try DetectionDecoder.decode(session, geometry: geometry, labels: detector.labels, options: options)
            (width, height) = (geometry.imageWidth, geometry.imageHeight)
        case .whole(let pixels):
            detections = try detector.detect(pixels, options: options)
            forwarded = now()
            (width, height) = (pixels.width, pixels.height)
        }
        let tracks = tracker?.update(detections, frameIndex: index, imageWidth: width, imageHeight: height) ?? []
        return ((detections, tracks), forwarded)
    }

    func result(index: Int, presentationTime: Duration, output: ([Detection], [TrackedDetection]),
                statistics: FrameStatistics) -> FrameResult {
        FrameResult(index: index, presentationTime: presentationTime, detections: output.0, tracks: output.1, statistics: statistics)
    }
}
