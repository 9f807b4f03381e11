/// The server's two stages of work. Preparation threads decode a request's image (or read its
/// tensor) and letterbox it to the network input; worker threads run the forward pass. Apart,
/// the next image is decoded while the current one's forward pass runs, so a worker does not
/// sit idle through a decode.
///
/// Preparation threads run at a lower priority (nice 10): where the cores are all busy with
/// forward passes, a decode waits for a free moment instead of delaying one.
///
/// Admission is the preparation stage's: `capacity` requests may wait, beyond that `submit`
/// refuses. Between the stages a prepared input waits only for a worker that is free: a
/// preparation thread holding one waits too, so at most `workers` prepared inputs exist beyond
/// those running.
final class RequestPipeline: Sendable {
    private let preparation: WorkQueue
    private let inference: WorkQueue

    /// Starts `workers` preparation threads and `workers` worker threads.
    init(capacity: Int, workers: Int, name: String) {
        preparation = WorkQueue(capacity: capacity, workers: workers, name: "\(name) preparation", niceness: 10)
        inference = WorkQueue(capacity: 0, workers: workers, name: name)
    }

    /// Requests that may wait before `submit` refuses.
    var capacity: Int { preparation.capacity }
    /// Requests whose forward passes run at once.
    var workers: Int { inference.workers }

    /// Requests waiting to be prepared, and requests in progress (being prepared, prepared and
    /// waiting for a worker, or running).
    var depth: (waiting: Int, running: Int) {
        let first = preparation.depth, second = inference.depth
        return (first.waiting, first.running + second.waiting + second.running)
    }

    /// Queues a request: `prepare` runs on a preparation thread with the time the request
    /// waited, and returns the work for a worker thread, or nil when it has answered the request
    /// itself (an error). False, and nothing queued, when the queue is full or closed.
    func submit(_ prepare: @escaping @Sendable (_ waited: Duration) -> (@Sendable () -> Void)?) -> Bool {
        let inference = inference
        return preparation.submit { waited in
            guard let detect = prepare(waited) else { return }
            // Only a close that timed out leaves the second stage closed before the first: the
            // request is still answered, on this thread.
            if !inference.submitWaitingForRoom({ _ in detect() }) { detect() }
        }
    }

    /// Refuses new requests, finishes those admitted, and waits up to `timeout` for both stages'
    /// threads to exit. Returns whether all of them did.
    @discardableResult
    func close(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        let prepared = preparation.close(timeout: timeout)
        let detected = inference.close(timeout: max(.zero, ContinuousClock.now.duration(to: deadline)))
        return prepared && detected
    }
}
