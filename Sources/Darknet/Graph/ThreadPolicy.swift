/// Chooses the thread count of each forward pass of a multi-threaded session from the wall
/// times of the passes before it, so that a core another process keeps busy does not make more
/// threads slower than one.
///
/// A pass split over two threads waits at the end of every step for the slower one; when the
/// scheduler takes a helper's core away for a time slice in the middle of its piece, the caller
/// waits for it, step after step. So the policy runs the session's full thread count and, now
/// and then, probes the other count (1 when running the full count, the full count when running
/// 1), and compares it with the fastest of the last `keptPasses` passes at the current count:
/// with other work on the machine pass times scatter widely, and a probe must beat the current
/// count's best, not a median, to switch, so that noise does not flip the count back and forth.
/// It leaves the full count for a 1-thread pass under `leaveFactor` times that, and comes back
/// when a full-count probe is no slower than the 1-thread passes' fastest. A full-count probe is
/// `fullProbePasses` passes, timed on the last, since the first wakes a helper that has gone to
/// sleep. A probe that loses doubles
/// the passes until the next one, from `firstInterval` up to `longestInterval`, so on an idle
/// machine about one pass in 64 runs at 1 thread. The decision depends only on the times it is
/// fed (tests script them); results do not depend on it, since every kernel gives the same bits
/// at any thread count.
package struct ThreadPolicy: Sendable {
    /// The session's thread count, which passes run on unless the policy finds 1 faster.
    package let maximum: Int
    /// The thread count passes run on between probes.
    package private(set) var current: Int
    /// Wall times of the latest passes at `current`, oldest first.
    private var recent: [UInt64] = []
    /// Passes at `current` since the last probe (or switch).
    private var sinceProbe = 0
    /// Passes at `current` before the next probe.
    private(set) var interval = ThreadPolicy.firstInterval
    /// Passes of the probe under way still to run.
    private var probeLeft = 0

    /// Passes between the first probes, and after every switch.
    package static let firstInterval = 4
    /// The most passes between two probes.
    package static let longestInterval = 64
    /// Passes at the current count whose fastest a probe is compared with.
    package static let keptPasses = 3
    /// A 1-thread probe leaves the full count when it takes less than this fraction of that time.
    package static let leaveFactor = 0.95
    /// A full-count probe comes back from 1 thread when it takes at most this fraction of that time.
    package static let returnFactor = 1.0
    /// Passes of a full-count probe (timed on the last).
    package static let fullProbePasses = 2

    /// A policy for a session of `maximum` threads, starting at all of them.
    package init(maximum: Int) {
        self.maximum = max(1, maximum)
        current = self.maximum
    }

    /// The thread count to run the next pass on.
    package func threadsForNextPass() -> Int {
        probeLeft > 0 ? other : current
    }

    /// The count a probe runs on.
    private var other: Int { current == 1 ? maximum : 1 }

    /// Records that a pass ran on `threads` threads in `nanoseconds`.
    package mutating func record(threads: Int, nanoseconds: UInt64) {
        guard maximum > 1 else { return }
        if threads == current {
            recent.append(nanoseconds)
            if recent.count > Self.keptPasses { recent.removeFirst() }
            sinceProbe += 1
            if recent.count >= Self.keptPasses, sinceProbe >= interval {
                probeLeft = other == maximum ? Self.fullProbePasses : 1
            }
            return
        }
        probeLeft -= 1
        guard probeLeft <= 0 else { return }  // a warm-up pass of the probe
        probeLeft = 0
        let fastest = Double(recent.min() ?? 0)
        sinceProbe = 0
        let wins = threads == maximum ? Double(nanoseconds) <= Self.returnFactor * fastest
            : Double(nanoseconds) < Self.leaveFactor * fastest
        if wins {
            current = threads
            recent = [nanoseconds]
            interval = Self.firstInterval
        } else {
            interval = min(interval * 2, Self.longestInterval)
        }
    }
}
