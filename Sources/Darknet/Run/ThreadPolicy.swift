/// Chooses the thread count of each forward pass of a multi-threaded session from the wall
/// times of the passes before it, so that a core another process keeps busy does not make more
/// threads slower than one.
///
/// A pass split over two threads waits at the end of every step for the slower one; when the
/// scheduler takes a helper's core away for a time slice in the middle of its piece, the caller
/// waits for it, step after step. So the policy runs the session's full thread count and, now
/// and then, probes the other count (1 when running the full count, the full count when running
/// 1) for `probePasses` timed passes, and switches when the probe's median beats the median of
/// the last `keptPasses` passes at the current count: by `leaveFactor` to leave the full count,
/// by `returnFactor` to come back. Medians on both sides, because under a busy core both
/// counts' times scatter widely (a lucky 2-thread pass is as fast as a free one, most are much
/// slower), and one sample against a fastest or a median flips the count on noise. A 1-thread
/// probe whose first timed pass is slower than `abandonFactor` times the current median stops
/// there and loses, so on a free machine a probe costs one pass. A full-count probe starts with one
/// untimed pass, since the first wakes a helper that has gone to sleep, and stops after its
/// first timed pass when that is slower than `returnAbandonFactor` times the 1-thread median:
/// on a free machine it would be about half, and under a busy core it costs 2 slow passes
/// instead of 4. A probe that loses doubles the passes until the next one, from
/// `firstInterval` up to `longestInterval`, so on an idle machine about one pass in 64 runs at 1
/// thread; a 1-thread probe that was faster but not by the margin (the scattered times of a busy
/// core) keeps the interval, so the next one comes as soon. The decision depends only on the
/// times it is fed (tests script them); results do not depend on it, since every kernel gives the
/// same bits at any thread count.
package struct ThreadPolicy: Sendable {
    /// The session's thread count, which passes run on unless the policy finds 1 faster.
    package let maximum: Int
    /// The thread count passes run on between probes.
    package private(set) var current: Int
    /// Wall times of the latest passes at `current`, oldest first.
    private var recent: [UInt64] = []
    /// Timed passes of the probe under way.
    private var probeTimes: [UInt64] = []
    /// Passes at `current` since the last probe (or switch).
    private var sinceProbe = 0
    /// Passes at `current` before the next probe.
    private(set) var interval = ThreadPolicy.firstInterval
    /// Passes of the probe under way still to run (its warm-up pass included).
    private var probeLeft = 0

    /// Passes between the first probes, and after every switch.
    package static let firstInterval = 4
    /// The most passes between two probes.
    package static let longestInterval = 64
    /// Passes at the current count whose median a probe is compared with.
    package static let keptPasses = 3
    /// Timed passes of a probe.
    package static let probePasses = 3
    /// A 1-thread probe leaves the full count when its median is under this fraction of the
    /// full count's.
    package static let leaveFactor = 0.95
    /// A full-count probe comes back from 1 thread when its median is at most this fraction of
    /// the 1-thread passes'.
    package static let returnFactor = 1.0
    /// A 1-thread probe whose first timed pass takes more than this times the full count's median
    /// loses at once.
    package static let abandonFactor = 1.4
    /// A full-count probe whose first timed pass takes more than this times the 1-thread median
    /// loses at once. Measured with `compare.py --contend on` on YOLOv3-tiny (AMD EPYC, 2 cores):
    /// under a busy core 2-thread passes took 1.15-1.35x the 1-thread ones, under 1.4, so every
    /// return probe ran all its passes.
    package static let returnAbandonFactor = 1.1

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
        guard probeLeft > 0, threads == other else {
            recordCurrent(nanoseconds)
            return
        }
        probeLeft -= 1
        if threads == maximum && probeLeft == Self.probePasses { return }  // the warm-up pass
        probeTimes.append(nanoseconds)
        let currentMedian = Self.median(recent)
        let abandon = threads == maximum ? Self.returnAbandonFactor : Self.abandonFactor
        if probeTimes.count == 1 && Double(nanoseconds) > abandon * currentMedian {
            finishProbe(won: false)
        } else if probeLeft == 0 {
            let probe = Self.median(probeTimes)
            let won = threads == maximum ? probe <= Self.returnFactor * currentMedian : probe < Self.leaveFactor * currentMedian
            finishProbe(won: won, nearMiss: !won && probe < currentMedian)
        }
    }

    private mutating func recordCurrent(_ nanoseconds: UInt64) {
        recent.append(nanoseconds)
        if recent.count > Self.keptPasses { recent.removeFirst() }
        sinceProbe += 1
        if recent.count >= Self.keptPasses, sinceProbe >= interval {
            probeLeft = Self.probePasses + (other == maximum ? 1 : 0)
        }
    }

    /// Ends the probe: switches when it `won`; otherwise waits twice as long for the next one,
    /// or as long again after a `nearMiss` (a 1-thread probe faster, but not by the margin).
    private mutating func finishProbe(won: Bool, nearMiss: Bool = false) {
        probeLeft = 0
        sinceProbe = 0
        if won {
            current = other
            recent = probeTimes
            interval = Self.firstInterval
        } else if !nearMiss {
            interval = min(interval * 2, Self.longestInterval)
        }
        probeTimes = []
    }

    private static func median(_ times: [UInt64]) -> Double {
        let sorted = times.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
    }
}
