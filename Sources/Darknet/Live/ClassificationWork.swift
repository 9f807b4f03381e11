/// A `ClassificationPipeline`'s frames: letterboxed into the classifier's input (as
/// `Classifier.classify(_ pixels:)` does), then the forward pass and the top classes.
final class ClassificationWork: PipelineWork {
    let classifier: Classifier
    let options: ClassificationOptions

    init(classifier: Classifier, options: ClassificationOptions) {
        self.classifier = classifier
        self.options = options
    }

    var inputCount: Int { classifier.network.inputShape.count }
    var fitsFrames: Bool { true }
    var stopped: any Error { ClassificationPipeline.Stopped() }

    func validate() throws { try options.validate() }

    func fit(_ pixels: PixelBuffer, into input: UnsafeMutableBufferPointer<Float>) throws -> LetterboxGeometry {
        try classifier.prepareInput(pixels, into: input)
    }

    func takeSession() -> PooledSession { classifier.runner.pool.take() }
    func giveBack(_ session: PooledSession) { classifier.runner.pool.give(session) }

    func run(_ input: PipelineInput, index: Int, session: PooledSession?,
             now: () -> ContinuousClock.Instant) throws -> (output: [Classification], forwarded: ContinuousClock.Instant) {
        switch input {
        case .fitted(let input, _):
            let pooled = session!  // held whenever frames are fitted here (always)
            try pooled.session.forward(input)
            let forwarded = now()
            return (try classifier.predictions(in: pooled, top: options.top), forwarded)
        case .whole(let pixels):
            let classes = try classifier.classify(pixels, options: options)
            return (classes, now())
        }
    }

    func result(index: Int, presentationTime: Duration, output: [Classification],
                statistics: FrameStatistics) -> FrameClassification {
        FrameClassification(index: index, presentationTime: presentationTime, classifications: output, statistics: statistics)
    }
}
