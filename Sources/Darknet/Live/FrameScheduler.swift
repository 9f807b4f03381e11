/// The frame policy as a state machine, with no threads and no clock: which frame to
/// preprocess next, which to run the network on, which to drop, when the producer must wait.
/// `DetectionPipeline` drives it under one lock; tests drive it step by step.
///
/// A frame moves `arrive` → waiting → `startPreprocess` → preprocessing → `finishPreprocess` →
/// prepared → `startForward` → forwarding → `finishForward`. At most one frame is in each of
/// preprocessing, prepared and forwarding. Under `.latest`, waiting holds at most one frame (a
/// newer arrival drops it) and a newly prepared frame replaces an older prepared one (which is
/// dropped), so the frame the network takes next is always the newest that could be ready.
/// Under `.every`, waiting holds at most `capacity` frames (`arrive` answers `.full` beyond) and
/// a frame is preprocessed only when the prepared slot is free: nothing is dropped, order kept.
struct FrameScheduler<Waiting, Prepared> {
    /// What `arrive` did with a frame.
    enum Arrival {
        /// Queued.
        case accepted
        /// Not a multiple of the stride: dropped at once.
        case skipped
        /// Queued; an older waiting frame was dropped (`.latest`).
        case replaced(Waiting)
        /// No room (`.every`): try again once a frame has moved on. Nothing was counted.
        case full
    }

    let policy: FramePolicy
    /// Frames that may wait under `.every`.
    let capacity: Int
    private(set) var waiting: [Waiting] = []
    private(set) var prepared: Prepared?
    private(set) var isPreprocessing = false
    private(set) var isForwarding = false
    /// No more frames will arrive.
    private(set) var isFinished = false
    /// Frames accepted, skipped or replaced (everything but `.full`).
    private(set) var received = 0
    private(set) var dropped = 0
    private(set) var processed = 0

    init(policy: FramePolicy, capacity: Int = 2) {
        self.policy = policy
        self.capacity = max(1, capacity)
    }

    /// A frame with index `index` arrives.
    mutating func arrive(_ frame: Waiting, index: Int) -> Arrival {
        if policy.mode == .every && waiting.count >= capacity && index % policy.stride == 0 { return .full }
        received += 1
        guard index % policy.stride == 0 else {
            dropped += 1
            return .skipped
        }
        if policy.mode == .latest, !waiting.isEmpty {
            let older = waiting.removeFirst()
            waiting.append(frame)
            dropped += 1
            return .replaced(older)
        }
        waiting.append(frame)
        return .accepted
    }

    /// The next frame to preprocess, if one may start now.
    mutating func startPreprocess() -> Waiting? {
        guard !isPreprocessing, !waiting.isEmpty, policy.mode == .latest || prepared == nil else { return nil }
        isPreprocessing = true
        return waiting.removeFirst()
    }

    /// Preprocessing ended with `frame` ready; returns the older prepared frame it replaced
    /// (dropped; `.latest` only).
    mutating func finishPreprocess(_ frame: Prepared) -> Prepared? {
        isPreprocessing = false
        let older = prepared
        if older != nil { dropped += 1 }
        prepared = frame
        return older
    }

    /// Preprocessing failed: the frame is gone (counted as dropped).
    mutating func abandonPreprocess() {
        isPreprocessing = false
        dropped += 1
    }

    /// The prepared frame, if the network is free to take it.
    mutating func startForward() -> Prepared? {
        guard !isForwarding, let frame = prepared else { return nil }
        prepared = nil
        isForwarding = true
        return frame
    }

    mutating func finishForward() {
        isForwarding = false
        processed += 1
    }

    /// No more frames will arrive.
    mutating func finish() { isFinished = true }

    /// Every frame that arrived has been processed or dropped, and no more will come.
    var isDrained: Bool { isFinished && waiting.isEmpty && prepared == nil && !isPreprocessing && !isForwarding }
}
