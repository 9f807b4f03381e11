import Darknet

// The Swift snippets of the article LiveFrames.md that no test runs, compiled with only its imports.

func liveFrames3() async throws {
    // begin Sources/Darknet/Darknet.docc/LiveFrames.md 3
    let live = ClassificationPipeline(classifier: classifier, policy: .latest, options: ClassificationOptions(top: 3))
    // In the capture callback: live.offer(Frame(pixels: pixels, presentationTime: time))
    for try await result in live.results {
        print(result.index, result.classifications.map(\.label), result.statistics.processedFPS)
    }
    // end Sources/Darknet/Darknet.docc/LiveFrames.md 3
}
