import DarknetVideo
import Darknet

// The Swift snippets of the article Video.md, compiled (never run) with only its imports.

func video1() async throws {
    // begin Sources/DarknetVideo/DarknetVideo.docc/Video.md 1
    let reader = try VideoReader(source: "clip.mp4")       // or "frames/%04d.png", "rtsp://camera/stream"
    for try await frame in reader.frames {
        let found = try await detector.detect(frame.pixels)
        print(frame.index, frame.presentationTime, found.map(\.label))
    }
    // end Sources/DarknetVideo/DarknetVideo.docc/Video.md 1
}

func video2() throws {
    // begin Sources/DarknetVideo/DarknetVideo.docc/Video.md 2
    while let frame = try reader.nextFrame() { print(frame.index, frame.presentationTime) }
    // end Sources/DarknetVideo/DarknetVideo.docc/Video.md 2
}

func video3() async throws {
    // begin Sources/DarknetVideo/DarknetVideo.docc/Video.md 3
    let camera = try VideoReader(source: VideoSourceKind.cameraPath(0),     // /dev/video0
                                 options: VideoReaderOptions(inputOptions: ["video_size": "1280x720",
                                                                            "input_format": "mjpeg"]))
    let live = DetectionPipeline(detector: detector, policy: .latest)
    for try await result in live.process(camera) { print(result.index, result.detections.map(\.label)) }
    // end Sources/DarknetVideo/DarknetVideo.docc/Video.md 3
}

func video4() async throws {
    // begin Sources/DarknetVideo/DarknetVideo.docc/Video.md 4
    let pipeline = DetectionPipeline(detector: detector, policy: .every, tracking: TrackerOptions())
    for try await result in pipeline.process(try VideoReader(source: "clip.mp4")) {
        print(result.index, result.presentationTime, result.tracks.map(\.id))
    }
    // end Sources/DarknetVideo/DarknetVideo.docc/Video.md 4
}

func video5() async throws {
    // begin Sources/DarknetVideo/DarknetVideo.docc/Video.md 5
    let feed = VideoFeed(reader: reader, pipeline: pipeline,
                         options: VideoFeed.Options(duration: .seconds(10), keptFrames: 60))
    feed.start()
    for try await result in pipeline.results {
        if let frame = feed.takeFrame(result.index) { draw(result.detections, on: frame) }
    }
    print(feed.framesRead, feed.framesSkipped)
    // end Sources/DarknetVideo/DarknetVideo.docc/Video.md 5
}

func video6() throws {
    // begin Sources/DarknetVideo/DarknetVideo.docc/Video.md 6
    let writer = try VideoWriter(path: "annotated.mp4", width: reader.width, height: reader.height,
                                 frameRate: reader.frameRate ?? 25)
    try writer.write(annotatedImage, presentationTime: frame.presentationTime)
    try writer.finish()
    // end Sources/DarknetVideo/DarknetVideo.docc/Video.md 6
}
