import DarknetVideo
import Foundation

/// Which decoded frames reach the detector.
struct FeedPolicy: Equatable {
    /// true: only the newest waiting frame is kept (older ones are dropped, the decoder never
    /// waits); false: every frame is kept and the decoder waits while the queue is full.
    var latest: Bool
    /// Only frames whose index is a multiple of this are candidates (1: all).
    var stride: Int
}

/// Decodes on a thread of its own and hands frames to one consumer under a `FeedPolicy`,
/// counting the frames read and dropped.
final class FrameFeed: @unchecked Sendable {
    private let reader: VideoReader
    private let policy: FeedPolicy
    private let capacity = 2
    private let condition = NSCondition()
    private var queue: [VideoFrame] = []
    private var ended = false
    private var failure: VideoError?
    private var stopped = false
    private(set) var framesRead = 0
    private(set) var dropped = 0
    private(set) var skipped = 0
    private var thread: Thread?
    private let stopTime: Double?

    /// - Parameter duration: stream seconds after the first frame at which reading stops.
    init(reader: VideoReader, policy: FeedPolicy, duration: Double?) {
        self.reader = reader
        self.policy = policy
        self.stopTime = duration
    }

    func start() {
        let thread = Thread { [self] in decodeLoop() }
        thread.name = "video decode"
        thread.start()
        self.thread = thread
    }

    /// The next frame for the detector; nil at the end (then `failure` says why, if an error).
    func next() -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !ended { condition.wait() }
        if queue.isEmpty { return nil }
        let frame = queue.removeFirst()
        condition.broadcast()
        return frame
    }

    /// The error that ended reading early, if any.
    var error: VideoError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Frames decoded, dropped by the latest policy and skipped by the stride, so far.
    var counts: (read: Int, dropped: Int, skipped: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (framesRead, dropped, skipped)
    }

    /// Stops decoding (Ctrl-C): frames already queued are still delivered.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        reader.cancel()
    }

    private func decodeLoop() {
        var firstTimestamp: Double?
        while true {
            let frame: VideoFrame?
            do {
                frame = try reader.nextFrame()
            } catch {
                finish(error: error)
                return
            }
            guard let frame else { finish(error: nil); return }
            let start = firstTimestamp ?? frame.timestamp
            firstTimestamp = start
            if let stopTime, frame.timestamp - start >= stopTime { finish(error: nil); return }
            condition.lock()
            framesRead += 1
            if stopped { condition.unlock(); finish(error: nil); return }
            guard frame.index % policy.stride == 0 else {
                skipped += 1
                condition.unlock()
                continue
            }
            if policy.latest {
                dropped += queue.count
                queue = [frame]
            } else {
                while queue.count >= capacity && !stopped { condition.wait() }
                queue.append(frame)
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    private func finish(error: VideoError?) {
        condition.lock()
        if case .cancelled? = error, stopped {
            failure = nil
        } else {
            failure = error
        }
        ended = true
        condition.broadcast()
        condition.unlock()
    }
}
