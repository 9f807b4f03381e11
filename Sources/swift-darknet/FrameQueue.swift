import Darknet
import DarknetVideo
import Foundation

/// Decodes a video on a thread of its own for a consumer that takes one frame at a time
/// (`classify-video`). Under `.latest` a new frame replaces the one waiting, which is dropped,
/// so the consumer always gets the newest and the lag never grows; under `.every` the decoder
/// waits while `capacity` frames wait. Frames the stride skips are counted, never queued.
/// Reading ends at the end of the input, after `duration` of stream time, on a read error
/// (`error`) and on `stop()`.
final class FrameQueue: @unchecked Sendable {
    // Invariant: every `var` is read and written with `condition` locked.
    private let reader: VideoReader
    private let policy: FramePolicy
    private let duration: Duration?
    private let capacity = 2
    private let condition = NSCondition()
    private var waiting: [VideoFrame] = []
    private var started = false
    private var finished = false
    private var stopped = false
    private var failure: VideoError?
    private var read = 0
    private var skipped = 0

    init(reader: VideoReader, policy: FramePolicy, duration: Duration?) {
        self.reader = reader
        self.policy = policy
        self.duration = duration
    }

    /// Starts decoding (once).
    func start() {
        let first = locked {
            defer { started = true }
            return !started
        }
        guard first else { return }
        let thread = Thread { [self] in decodeLoop() }
        thread.name = "SwiftDarknet.FrameQueue"
        thread.start()
    }

    /// The next frame, waiting for one; nil once reading has ended and none waits.
    func next() -> VideoFrame? {
        locked {
            while waiting.isEmpty && !finished { condition.wait() }
            guard !waiting.isEmpty else { return nil }
            defer { condition.broadcast() }
            return waiting.removeFirst()
        }
    }

    /// Stops decoding (a Ctrl-C, or the consumer giving up); frames already waiting are still
    /// handed out.
    func stop() {
        locked {
            stopped = true
            condition.broadcast()
        }
        reader.cancel()
    }

    /// Waits until the decoding thread has ended (after the input's end or `stop()`).
    func join() {
        locked { while started && !finished { condition.wait() } }
    }

    /// The error that ended reading early, if any (a `stop()` is none).
    var error: VideoError? { locked { failure } }
    /// Frames decoded.
    var framesRead: Int { locked { read } }
    /// Frames decoded that the stride skipped.
    var framesSkipped: Int { locked { skipped } }

    private func decodeLoop() {
        var firstTime: Duration?
        defer {
            locked {
                finished = true
                condition.broadcast()
            }
        }
        while true {
            let next: VideoFrame?
            do {
                next = try reader.nextFrame()
            } catch {
                locked {
                    if case .cancelled = error, stopped { return }
                    failure = error
                }
                return
            }
            guard let frame = next else { return }
            let start = firstTime ?? frame.presentationTime
            firstTime = start
            if let duration, frame.presentationTime - start >= duration { return }
            guard enqueue(frame) else { return }
        }
    }

    /// Counts `frame` and queues it as the policy says; false once stopped.
    private func enqueue(_ frame: VideoFrame) -> Bool {
        locked {
            guard !stopped else { return false }
            read += 1
            guard frame.index % policy.stride == 0 else {
                skipped += 1
                return true
            }
            if policy.mode == .latest {
                waiting = [frame]
            } else {
                while waiting.count >= capacity && !stopped { condition.wait() }
                guard !stopped else { return false }
                waiting.append(frame)
            }
            condition.broadcast()
            return true
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }
}
