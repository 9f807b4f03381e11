import Foundation

/// Detection on a stream of frames — a camera, a video, any producer — with a frame policy,
/// results in order as an `AsyncSequence`, and per-frame statistics.
///
/// Two threads of the library's own do the work: one letterboxes the next frame into the
/// network input while the other runs the forward pass on the current one (the overlap uses a
/// free core; with `Detector.threads` at the core count they share). The pipeline holds one
/// session of its detector for its lifetime (with tiling, the detector's tile sessions per frame).
///
/// ```swift
/// let pipeline = DetectionPipeline(detector: detector, policy: .latest)
/// camera.onFrame = { pixels, time in _ = pipeline.offer(Frame(pixels: pixels, presentationTime: time)) }
/// for try await result in pipeline.results {
///     draw(result.detections); show(result.statistics.processedFPS)
/// }
/// ```
///
/// Feed it with `offer` (never waits: for callbacks) or `send` (waits under `.every`), or hand
/// it an `AsyncSequence` of frames with `process(_:)`; call `finish()` after the last frame.
/// Deinitialising the pipeline finishes it too: frames already in are still processed.
public final class DetectionPipeline: Sendable {
    private let core: PipelineCore

    /// The results, in frame order; ends after `finish()` once every frame is processed or
    /// dropped, or with an error if a frame cannot be processed (or, before any frame, with an
    /// `ArgumentError` if the policy or options are invalid). One consumer; stopping iteration
    /// stops the pipeline.
    public let results: AsyncThrowingStream<FrameResult, any Error>

    /// A pipeline over `detector`'s network.
    /// - Parameters:
    ///   - detector: runs the forward passes (its `threads` each); it may serve other callers too.
    ///   - policy: which frames are processed (`.latest` for live sources, `.every` for files).
    ///   - options: thresholds and result shaping, as for `Detector.detect`. With `tiling`, each
    ///     frame's tiles run on the forward thread (`threads` of them at once; the preprocess
    ///     thread only hands the frame on), and `FrameStatistics.forward` is their time.
    ///   - tracking: give detections stable IDs across the processed frames (`ObjectTracker`,
    ///     with its box smoothing); `nil`: no tracking, `FrameResult.tracks` stays empty.
    ///
    /// An invalid policy (a stride below 1) or options (see `DetectionOptions.validate()`) do not
    /// trap: the pipeline takes no frame and `results` ends with the `ArgumentError`.
    public convenience init(detector: Detector, policy: FramePolicy = .latest, options: DetectionOptions = DetectionOptions(),
                            tracking: TrackerOptions? = nil) {
        self.init(detector: detector, policy: policy, options: options, tracking: tracking, now: { ContinuousClock.now })
    }

    /// A pipeline measuring time with `clock` (nanoseconds).
    @available(*, deprecated, message: "pipelines measure with ContinuousClock: use init(detector:policy:options:tracking:)")
    public convenience init(detector: Detector, policy: FramePolicy = .latest, options: DetectionOptions = DetectionOptions(),
                            tracking: TrackerOptions? = nil, clock: any PipelineClock) {
        let origin = ContinuousClock.now, start = clock.now()
        self.init(detector: detector, policy: policy, options: options, tracking: tracking,
                  now: { origin + .nanoseconds(Int64(bitPattern: clock.now() &- start)) })
    }

    private init(detector: Detector, policy: FramePolicy, options: DetectionOptions, tracking: TrackerOptions?,
                 now: @escaping @Sendable () -> ContinuousClock.Instant) {
        let (stream, continuation) = AsyncThrowingStream<FrameResult, any Error>.makeStream()
        results = stream
        core = PipelineCore(detector: detector, policy: policy, options: options,
                            tracker: tracking.map { ObjectTracker(options: $0) }, now: now, output: continuation)
        continuation.onTermination = { [core] _ in core.stop() }
        do {
            try ArgumentError.require("FramePolicy.stride", policy.stride, atLeast: 1)
            try options.validate()
        } catch {
            core.fail(error)
        }
        core.start()
    }

    deinit { core.finish() }

    /// The pipeline's policy.
    public var policy: FramePolicy { core.policy }

    /// Hands over a frame without waiting. Under `.latest` it is always taken (an older frame
    /// still waiting is dropped); under `.every` it is refused (`false`) while the queue is
    /// full, and after `finish()`.
    @discardableResult
    public func offer(_ frame: Frame) -> Bool { core.offer(frame) }

    /// Hands over a frame, waiting under `.every` until there is room (back-pressure).
    /// - Throws: `DetectionPipeline.Stopped` if the pipeline stopped or finished.
    public func send(_ frame: Frame) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            core.send(frame, continuation)
        }
    }

    /// Hands over a frame from a thread of the caller's own (a camera or decoder thread): under
    /// `.latest` at once, as `offer`; under `.every` blocking the thread until there is room.
    /// - Throws: `DetectionPipeline.Stopped` if the pipeline finished or stopped (the frame
    ///   was not taken).
    public func submit(_ frame: Frame) throws { try core.submit(frame) }

    /// No more frames: `results` ends once the frames already in are processed.
    public func finish() { core.finish() }

    /// No more frames, because the producer failed: the frames already in are processed, then
    /// `results` ends with `error` (a video that cannot be read further).
    package func finish(throwing error: any Error) { core.finish(throwing: error) }

    /// Feeds every frame of `frames` (with `send`, so `.every` holds the sequence back; under
    /// `.latest` frames are offered as they come), then finishes. Returns `results`.
    public func process<Frames: AsyncSequence & Sendable>(_ frames: Frames) -> AsyncThrowingStream<FrameResult, any Error>
        where Frames.Element == Frame {
        Task { [self] in
            do {
                for try await frame in frames {
                    if policy.mode == .latest { offer(frame) } else { try await send(frame) }
                }
            } catch {
                core.fail(error)
            }
            finish()
        }
        return results
    }

    /// Ends `results` with `error` after the frame under way; no more frames are taken (a
    /// producer that cannot go on, such as a video that cannot be read further).
    package func fail(_ error: any Error) { core.fail(error) }

    /// The pipeline no longer takes frames (finished, stopped or failed).
    public struct Stopped: DarknetError {
        public var description: String { "the detection pipeline has finished or stopped" }
    }
}

/// The pipeline's shared state and its two threads.
private final class PipelineCore: @unchecked Sendable {
    // Invariant: every `var` is read and written under `condition`'s lock; the input buffers
    // are written by the preprocess thread while their index is out of `freeBuffers` and read
    // by the forward thread while it forwards that index.
    let policy: FramePolicy
    private let detector: Detector
    private let options: DetectionOptions
    /// Used by the forward thread only.
    private var tracker: ObjectTracker?
    private let now: @Sendable () -> ContinuousClock.Instant
    private let output: AsyncThrowingStream<FrameResult, any Error>.Continuation
    private let condition = NSCondition()
    private var scheduler: FrameScheduler<Arrived, Prepared>
    private var pendingSends: [(Arrived, CheckedContinuation<Void, any Error>)] = []
    private var stopped = false
    private var failure: (any Error)?
    private var nextIndex = 0
    private var inputRate = RateMeter()
    private var resultRate = RateMeter()
    /// Three network inputs: one forwarding, one prepared, one being written.
    private let buffers: [UnsafeMutableBufferPointer<Float>]
    private var freeBuffers: [Int] = [0, 1, 2]

    struct Arrived {
        let frame: Frame
        let index: Int
        let arrival: ContinuousClock.Instant
    }
    struct Prepared {
        let index: Int
        let presentationTime: Duration
        let captured: ContinuousClock.Instant
        let input: Input
        let preprocess: Duration

        /// The letterboxed network input (an index into `buffers`, and where the frame sits in
        /// it), or, with tiling, the frame itself: its tiles are fitted on the forward thread.
        enum Input {
            case letterboxed(buffer: Int, geometry: LetterboxGeometry)
            case tiled(PixelBuffer)
        }

        /// The input buffer this frame holds, if any.
        var buffer: Int? {
            if case .letterboxed(let buffer, _) = input { return buffer }
            return nil
        }
    }

    init(detector: Detector, policy: FramePolicy, options: DetectionOptions, tracker: ObjectTracker?,
         now: @escaping @Sendable () -> ContinuousClock.Instant, output: AsyncThrowingStream<FrameResult, any Error>.Continuation) {
        self.detector = detector
        self.tracker = tracker
        self.policy = policy
        self.options = options
        self.now = now
        self.output = output
        scheduler = FrameScheduler(policy: policy)
        let count = detector.network.inputShape.count
        buffers = (0..<3).map { _ in
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
            buffer.initialize(repeating: 0)
            return buffer
        }
    }

    deinit { for buffer in buffers { buffer.deallocate() } }

    func start() {
        let preprocess = Thread { [self] in preprocessLoop() }
        preprocess.name = "SwiftDarknet.Pipeline.preprocess"
        preprocess.start()
        let forward = Thread { [self] in forwardLoop() }
        forward.name = "SwiftDarknet.Pipeline.forward"
        forward.start()
    }

    // MARK: Producers

    func offer(_ frame: Frame) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, !scheduler.isFinished else { return false }
        let arrived = arrivedLocked(frame)
        if case .full = scheduler.arrive(arrived, index: arrived.index) {
            nextIndex -= frame.index == nil ? 1 : 0  // not taken: the next frame gets this number
            return false
        }
        inputRate.record(arrived.arrival)
        condition.broadcast()
        return true
    }

    func send(_ frame: Frame, _ continuation: CheckedContinuation<Void, any Error>) {
        condition.lock()
        guard !stopped, !scheduler.isFinished else {
            condition.unlock()
            continuation.resume(throwing: DetectionPipeline.Stopped())
            return
        }
        let arrived = arrivedLocked(frame)
        guard pendingSends.isEmpty, !isFull(scheduler.arrive(arrived, index: arrived.index)) else {
            pendingSends.append((arrived, continuation))
            condition.unlock()
            return
        }
        inputRate.record(arrived.arrival)
        condition.broadcast()
        condition.unlock()
        continuation.resume()
    }

    func submit(_ frame: Frame) throws {
        condition.lock()
        defer { condition.unlock() }
        let arrived = arrivedLocked(frame)
        while true {
            guard !stopped, !scheduler.isFinished else { throw DetectionPipeline.Stopped() }
            if pendingSends.isEmpty, !isFull(scheduler.arrive(arrived, index: arrived.index)) { break }
            condition.wait()
        }
        inputRate.record(arrived.arrival)
        condition.broadcast()
    }

    private func isFull(_ arrival: FrameScheduler<Arrived, Prepared>.Arrival) -> Bool {
        if case .full = arrival { return true }
        return false
    }

    private func arrivedLocked(_ frame: Frame) -> Arrived {
        let index = frame.index ?? nextIndex
        nextIndex = max(nextIndex, index + 1)
        return Arrived(frame: frame, index: index, arrival: now())
    }

    /// Under the lock: moves waiting senders into the queue while there is room.
    private func admitPendingSendsLocked() {
        while let (arrived, continuation) = pendingSends.first {
            guard !isFull(scheduler.arrive(arrived, index: arrived.index)) else { return }
            pendingSends.removeFirst()
            inputRate.record(arrived.arrival)
            continuation.resume()
        }
    }

    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        if failure == nil { failure = error }
        scheduler.finish()
        condition.broadcast()
        condition.unlock()
    }

    /// Stops at once: waiting frames are dropped and the threads end.
    func stop() {
        condition.lock()
        stopped = true
        let senders = pendingSends
        pendingSends = []
        condition.broadcast()
        condition.unlock()
        for (_, continuation) in senders { continuation.resume(throwing: DetectionPipeline.Stopped()) }
    }

    /// Ends `results` with `error` after the frame under way.
    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.unlock()
        stop()
    }

    // MARK: Threads

    private func preprocessLoop() {
        condition.lock()
        while !stopped {
            guard let arrived = scheduler.startPreprocess() else {
                if scheduler.isFinished && scheduler.waiting.isEmpty && pendingSends.isEmpty { break }
                condition.wait()
                continue
            }
            admitPendingSendsLocked()
            condition.broadcast()  // room for a blocked `submit`
            let buffer = options.tiling == nil ? freeBuffers.removeLast() : nil
            condition.unlock()
            let start = now()
            let input: Prepared.Input?
            var error: (any Error)?
            do {
                input = try buffer.map { buffer in
                    .letterboxed(buffer: buffer, geometry: try detector.prepareInput(arrived.frame.pixels, letterbox: options.letterbox,
                                                                                     into: buffers[buffer]))
                } ?? .tiled(arrived.frame.pixels)
            } catch let caught {
                input = nil
                error = caught
            }
            let preprocessTime = now() - start
            condition.lock()
            guard let input else {
                scheduler.abandonPreprocess()
                if let buffer { freeBuffers.append(buffer) }
                if failure == nil { failure = error }
                stopped = true
                condition.broadcast()
                break
            }
            let prepared = Prepared(index: arrived.index, presentationTime: arrived.frame.presentationTime,
                                    captured: arrived.frame.captureInstant ?? arrived.arrival, input: input,
                                    preprocess: preprocessTime)
            if let older = scheduler.finishPreprocess(prepared), let buffer = older.buffer { freeBuffers.append(buffer) }
            condition.broadcast()
        }
        let senders = stopped ? pendingSends : []
        if stopped { pendingSends = [] }
        condition.unlock()
        for (_, continuation) in senders { continuation.resume(throwing: DetectionPipeline.Stopped()) }
    }

    private func forwardLoop() {
        // With tiling the detector borrows its own sessions for each frame's tiles.
        let pooled = options.tiling == nil ? detector.runner.pool.take() : nil
        defer { if let pooled { detector.runner.pool.give(pooled) } }
        condition.lock()
        while !stopped {
            guard let frame = scheduler.startForward() else {
                if scheduler.isDrained { break }
                condition.wait()
                continue
            }
            condition.unlock()
            let result = Result { try run(frame, in: pooled) }
            condition.lock()
            scheduler.finishForward()
            if let buffer = frame.buffer { freeBuffers.append(buffer) }
            condition.broadcast()
            switch result {
            case .success(let (detections, tracks, forward, postprocess)):
                let finished = now()
                resultRate.record(finished)
                let statistics = FrameStatistics(
                    captureToResult: finished - frame.captured, preprocessTime: frame.preprocess, forwardTime: forward,
                    postprocessTime: postprocess, received: scheduler.received, processed: scheduler.processed,
                    dropped: scheduler.dropped, processedFPS: resultRate.rate, inputFPS: inputRate.rate)
                output.yield(FrameResult(index: frame.index, presentationTime: frame.presentationTime, detections: detections,
                                         tracks: tracks, statistics: statistics))
            case .failure(let error):
                if failure == nil { failure = error }
                stopped = true
            }
        }
        let failure = self.failure
        condition.broadcast()
        condition.unlock()
        if let failure { output.finish(throwing: failure) } else { output.finish() }
    }

    /// The forward pass, decoding and tracking of one prepared frame (on the forward thread),
    /// with the times of the pass and of the rest.
    private func run(_ frame: Prepared, in pooled: PooledSession?) throws -> ([Detection], [TrackedDetection], Duration, Duration) {
        let start = now()
        let detections: [Detection], forwarded: ContinuousClock.Instant, width: Int, height: Int
        switch frame.input {
        case .letterboxed(let buffer, let geometry):
            let session = pooled!.session  // held whenever frames are letterboxed here (no tiling)
            try session.forward(UnsafeBufferPointer(buffers[buffer]))
            forwarded = now()
            detections = try DetectionDecoder.decode(session, geometry: geometry, labels: detector.labels, options: options)
            (width, height) = (geometry.imageWidth, geometry.imageHeight)
        case .tiled(let pixels):
            detections = try detector.detect(pixels, options: options)
            forwarded = now()
            (width, height) = (pixels.width, pixels.height)
        }
        let tracks = tracker?.update(detections, frameIndex: frame.index, imageWidth: width, imageHeight: height) ?? []
        let finished = now()
        return (detections, tracks, forwarded - start, finished - forwarded)
    }
}
