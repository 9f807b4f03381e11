import Foundation

/// A live pipeline's shared state and its two threads: frames in under a `FramePolicy`, one
/// fitted while the one before it runs, results out in order with their statistics. `Work`
/// says what is done with each frame.
final class PipelineCore<Work: PipelineWork>: @unchecked Sendable {
    // Invariant: every `var` is read and written under `condition`'s lock; the input buffers
    // are written by the preprocess thread while their index is out of `freeBuffers` and read
    // by the forward thread while it forwards that index.
    let policy: FramePolicy
    private let work: Work
    private let now: @Sendable () -> ContinuousClock.Instant
    private let output: AsyncThrowingStream<Work.Result, any Error>.Continuation
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

        /// The fitted network input (an index into `buffers`, and where the frame sits in it),
        /// or the frame itself when the work takes it whole (tiling fits its tiles later).
        enum Input {
            case fitted(buffer: Int, geometry: LetterboxGeometry)
            case whole(PixelBuffer)
        }

        /// The input buffer this frame holds, if any.
        var buffer: Int? {
            if case .fitted(let buffer, _) = input { return buffer }
            return nil
        }
    }

    /// A core whose threads start with `start()`.
    init(work: Work, policy: FramePolicy, now: @escaping @Sendable () -> ContinuousClock.Instant,
         output: AsyncThrowingStream<Work.Result, any Error>.Continuation) {
        self.work = work
        self.policy = policy
        self.now = now
        self.output = output
        scheduler = FrameScheduler(policy: policy)
        let count = work.inputCount
        buffers = (0..<3).map { _ in
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
            buffer.initialize(repeating: 0)
            return buffer
        }
    }

    deinit { for buffer in buffers { buffer.deallocate() } }

    /// Starts the threads; an invalid stride or invalid options (`Work.validate`) first end
    /// `results` with their `ArgumentError`, and no frame is taken.
    func start() {
        do {
            try ArgumentError.require("FramePolicy.stride", policy.stride, atLeast: 1)
            try work.validate()
        } catch {
            fail(error)
        }
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
            continuation.resume(throwing: work.stopped)
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

    /// Hands over `frame`, suspending under `.every` until there is room.
    func send(_ frame: Frame) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            send(frame, continuation)
        }
    }

    /// Feeds every frame of `frames` on a task of its own (sent, so `.every` holds the sequence
    /// back; offered as they come under `.latest`), then finishes; when the sequence throws, the
    /// frames already in are processed and `results` end with its error.
    func feed<Frames: AsyncSequence & Sendable>(_ frames: Frames) where Frames.Element == Frame {
        Task { [self] in
            do {
                for try await frame in frames {
                    if policy.mode == .latest { _ = offer(frame) } else { try await send(frame) }
                }
                finish()
            } catch {
                finish(throwing: error)
            }
        }
    }

    func submit(_ frame: Frame) throws {
        condition.lock()
        defer { condition.unlock() }
        let arrived = arrivedLocked(frame)
        while true {
            guard !stopped, !scheduler.isFinished else { throw work.stopped }
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
        for (_, continuation) in senders { continuation.resume(throwing: work.stopped) }
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
            let buffer = work.fitsFrames ? freeBuffers.removeLast() : nil
            condition.unlock()
            let start = now()
            let input: Prepared.Input?
            var error: (any Error)?
            do {
                input = try buffer.map { buffer in
                    .fitted(buffer: buffer, geometry: try work.fit(arrived.frame.pixels, into: buffers[buffer]))
                } ?? .whole(arrived.frame.pixels)
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
        for (_, continuation) in senders { continuation.resume(throwing: work.stopped) }
    }

    private func forwardLoop() {
        let pooled = work.fitsFrames ? work.takeSession() : nil
        defer { if let pooled { work.giveBack(pooled) } }
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
            case .success(let (result, forward, postprocess)):
                let finished = now()
                resultRate.record(finished)
                let statistics = FrameStatistics(
                    captureToResult: finished - frame.captured, preprocessTime: frame.preprocess, forwardTime: forward,
                    postprocessTime: postprocess, received: scheduler.received, processed: scheduler.processed,
                    dropped: scheduler.dropped, processedFPS: resultRate.rate, inputFPS: inputRate.rate)
                output.yield(work.result(index: frame.index, presentationTime: frame.presentationTime, output: result,
                                         statistics: statistics))
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

    /// What the work gives for one prepared frame (on the forward thread), with the times of
    /// the forward pass and of the rest.
    private func run(_ frame: Prepared, in pooled: PooledSession?) throws -> (Work.Output, Duration, Duration) {
        let start = now()
        let input: PipelineInput
        switch frame.input {
        case .fitted(let buffer, let geometry): input = .fitted(UnsafeBufferPointer(buffers[buffer]), geometry)
        case .whole(let pixels): input = .whole(pixels)
        }
        let (output, forwarded) = try work.run(input, index: frame.index, session: pooled, now: now)
        return (output, forwarded - start, now() - forwarded)
    }
}
