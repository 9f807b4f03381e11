import Foundation

/// SIGTERM and SIGINT for `serve`: blocked in every thread from creation on, and taken by
/// `wait()` on the main thread, so a stop request never lands inside a worker.
///
/// Threads that libraries start while loading (OpenBLAS's server thread) predate the mask and
/// leave the signals unblocked; when the main thread is not waiting at the moment the signal
/// comes, the kernel hands it to such a thread, whose default action would end the process
/// without the drain. A handler on those threads forwards the signal to the waiting thread.
final class ShutdownSignals {
    private var set = sigset_t()

    init() {
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signalWaiter = pthread_self()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in _ = pthread_kill(signalWaiter, signal) }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
    }

    /// Waits for SIGTERM or SIGINT; returns its name.
    func wait() -> String {
        var signal: Int32 = 0
        while sigwait(&set, &signal) != 0 {}
        return signal == SIGTERM ? "SIGTERM" : "SIGINT"
    }

    /// Runs `work` on another thread; a second SIGTERM or SIGINT meanwhile exits at once with
    /// status 1. Returns `work`'s result.
    func whileWaitingForASecondSignal(_ work: @escaping @Sendable () -> Bool) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Thread.detachNewThread {
            result.value = work()
            done.signal()
        }
        var timeout = timespec(tv_sec: 0, tv_nsec: 100_000_000)
        while done.wait(timeout: .now()) == .timedOut {
            if sigtimedwait(&set, nil, &timeout) > 0 {
                FileHandle.standardError.write(Data("swift-darknet: a second stop signal: exiting without waiting\n".utf8))
                exit(1)
            }
        }
        return result.value
    }

    private final class ResultBox: @unchecked Sendable {
        var value = false
    }
}

/// The thread `ShutdownSignals` waits on (set before its handler is installed; the handler only
/// reads it).
nonisolated(unsafe) private var signalWaiter = pthread_self()
