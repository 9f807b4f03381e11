@testable import Darknet
import TestSupport
import XCTest

/// The thread policy of multi-threaded sessions, fed scripted pass times (no clock): it keeps
/// all threads while they are faster, moves to 1 thread when a probe's median shows that one is
/// faster (a busy core), comes back when a probe shows all threads faster again, and does not
/// follow single lucky or unlucky passes.
final class ThreadPolicyTests: XCTestCase {
    /// Runs `passes` passes whose time is `time(threads)` and returns the thread count of each.
    private func run(_ policy: inout ThreadPolicy, passes: Int, time: (Int) -> UInt64) -> [Int] {
        (0..<passes).map { _ in
            let threads = policy.threadsForNextPass()
            policy.record(threads: threads, nanoseconds: time(threads))
            return threads
        }
    }

    /// Pass times where 1 thread takes `oneThread` ns and 2 threads take `twoThreads` in turn,
    /// the turn counted over every pass (1-thread ones included).
    private func cycling(oneThread: UInt64, twoThreads: [UInt64]) -> (Int) -> UInt64 {
        var pass = 0
        return { threads in
            pass += 1
            return threads == 1 ? oneThread : twoThreads[pass % twoThreads.count]
        }
    }

    func testOneThreadSessionsNeverProbe() {
        var policy = ThreadPolicy(maximum: 1)
        XCTAssertEqual(Set(run(&policy, passes: 100) { _ in 10 }), [1])
    }

    func testFasterThreadsAreKeptAndProbedEverLessOften() {
        var policy = ThreadPolicy(maximum: 2)
        let threads = run(&policy, passes: 400) { $0 == 2 ? 23_000_000 : 35_000_000 }
        let probes = threads.indices.filter { threads[$0] == 1 }
        // First after keptPasses passes at 2 and firstInterval of them, then every 8, 16, 32, 64, 64...
        // Each probe is one pass: 35 ms is over abandonFactor times 23, so it stops at once.
        XCTAssertEqual(probes.first, max(ThreadPolicy.keptPasses, ThreadPolicy.firstInterval))
        let gaps = zip(probes.dropFirst(), probes).map { $0 - $1 - 1 }
        XCTAssertEqual(Array(gaps.prefix(5)), [8, 16, 32, 64, 64])
        XCTAssertEqual(policy.current, 2)
    }

    func testABusyCoreMovesPassesToOneThreadAndBack() {
        var policy = ThreadPolicy(maximum: 2)
        _ = run(&policy, passes: 200) { $0 == 2 ? 23_000_000 : 35_000_000 }  // probes now 64 passes apart
        XCTAssertEqual(policy.current, 2)
        // Another process takes a core: 2 threads now 46 ms, 1 thread 36 ms.
        let busy = run(&policy, passes: 200) { $0 == 2 ? 46_000_000 : 36_000_000 }
        XCTAssertEqual(policy.current, 1)
        let switched = busy.firstIndex(of: 1)!
        XCTAssertLessThanOrEqual(switched, ThreadPolicy.longestInterval, "the next probe finds 1 thread faster")
        // Afterwards mostly 1 thread, probing 2 ever less often.
        let after = busy[(switched + 1)...]
        XCTAssertGreaterThan(after.filter { $0 == 1 }.count, after.count * 85 / 100)
        // The core is free again: the next probe of 2 threads switches back.
        let free = run(&policy, passes: 100) { $0 == 2 ? 23_000_000 : 35_000_000 }
        XCTAssertEqual(policy.current, 2)
        XCTAssertLessThanOrEqual(free.firstIndex(of: 2)!, ThreadPolicy.longestInterval)
    }

    func testUnderABusyCoreAReturnProbeStopsAfterItsFirstTimedPass() {
        var policy = ThreadPolicy(maximum: 2)
        _ = run(&policy, passes: 50) { $0 == 2 ? 46_000_000 : 36_000_000 }
        XCTAssertEqual(policy.current, 1)
        // 2 threads 1.28x slower than 1: over returnAbandonFactor, so each probe is its warm-up
        // pass and one timed pass, every time.
        let threads = run(&policy, passes: 300) { $0 == 2 ? 46_000_000 : 36_000_000 }
        XCTAssertEqual(policy.current, 1)
        let starts = threads.indices.filter { $0 > 0 && threads[$0] == 2 && threads[$0 - 1] == 1 }
        XCTAssertGreaterThan(starts.count, 2)
        for start in starts.dropLast() {
            XCTAssertEqual(Array(threads[start..<start + 3]), [2, 2, 1], "probe at pass \(start)")
        }
    }

    func testAProbeWithinTheMarginDoesNotLeaveTheFullCount() {
        var policy = ThreadPolicy(maximum: 2)
        // 1 thread only 3 % faster than 2: not worth the risk of running 1 where 2 would be faster.
        var currents: Set<Int> = []
        let threads = (0..<300).flatMap { _ in
            defer { currents.insert(policy.current) }
            return run(&policy, passes: 1) { $0 == 2 ? 40_000_000 : 38_800_000 }
        }
        XCTAssertEqual(currents, [2])
        // A near miss keeps the interval (a busy core scatters times; the next probe may be
        // clear): a probe of probePasses passes every firstInterval passes at 2.
        let probes = threads.indices.filter { $0 > 0 && threads[$0] == 1 && threads[$0 - 1] == 2 }
        let gaps = zip(probes.dropFirst(), probes).map { $0 - $1 - ThreadPolicy.probePasses }
        XCTAssertEqual(Set(gaps), [ThreadPolicy.firstInterval])
    }

    func testProbesAreComparedWithTheMedianOfRecentPasses() {
        var policy = ThreadPolicy(maximum: 2)
        // A busy core: 2-thread passes scatter 23-60 ms, most of them slow; 1 thread takes 35 ms,
        // more than the fastest 2-thread pass but less than their median: the policy moves to 1.
        let busy = run(&policy, passes: 300, time: cycling(oneThread: 35_000_000, twoThreads: [23_000_000, 60_000_000, 50_000_000]))
        XCTAssertEqual(policy.current, 1)
        XCTAssertGreaterThan(busy.filter { $0 == 1 }.count, 250)
    }

    func testSingleLuckyPassesDoNotFlipTheCount() {
        var policy = ThreadPolicy(maximum: 2)
        // 2-thread passes mostly 20 ms with a slow one in three: their median stays under 1 thread's.
        _ = run(&policy, passes: 300, time: cycling(oneThread: 35_000_000, twoThreads: [20_000_000, 20_000_000, 60_000_000]))
        XCTAssertEqual(policy.current, 2)
        // On 1 thread under a busy core (36 ms), one 2-thread pass in three is lucky (25 ms): a
        // full-count probe's median is 70 ms, so the policy stays on 1.
        _ = run(&policy, passes: 100) { $0 == 2 ? 46_000_000 : 36_000_000 }
        XCTAssertEqual(policy.current, 1)
        let threads = run(&policy, passes: 300, time: cycling(oneThread: 36_000_000, twoThreads: [25_000_000, 70_000_000, 70_000_000]))
        XCTAssertEqual(policy.current, 1)
        XCTAssertGreaterThan(threads.filter { $0 == 1 }.count, 270)
    }

    func testAFullCountProbeIsTimedAfterItsWarmUpPass() {
        var policy = ThreadPolicy(maximum: 2)
        _ = run(&policy, passes: 50) { $0 == 2 ? 46_000_000 : 36_000_000 }
        XCTAssertEqual(policy.current, 1)
        // The core is free again, but the first pass of each probe wakes a sleeping helper: slow.
        var previous = 1
        let threads = run(&policy, passes: 100) { threads in
            defer { previous = threads }
            return threads == 1 ? 36_000_000 : previous == 1 ? 60_000_000 : 23_000_000
        }
        XCTAssertEqual(policy.current, 2)
        let back = threads.firstIndex(of: 2)!
        // The untimed pass, the probe's timed passes, then 2 threads until the next 1-thread probe.
        XCTAssertEqual(Array(threads[back...].prefix(1 + ThreadPolicy.probePasses + ThreadPolicy.firstInterval)),
                       Array(repeating: 2, count: 1 + ThreadPolicy.probePasses + ThreadPolicy.firstInterval))
    }

    func testSessionsWithThePolicyGiveTheSameBitsAsOneThread() throws {
        let cfg = try TestPaths.require(TestPaths.tinyCfg)
        let network = try Network(cfg: cfg, weights: try TestPaths.require(TestPaths.tinyWeights))
        let input = try readFloatFile(try TestPaths.require(TestPaths.fixtures.appendingPathComponent("input/dog-416.bin")))
        let single = InferenceSession(network: network, threads: 1)
        try single.forward(input)
        let expected = try single.layout.retained.sorted().map { try single.output(ofLayer: $0).values }
        let session = InferenceSession(network: network, threads: 2)
        var used: Set<Int> = []
        // Past the first probe: passes on 2 threads and on 1, all with the same outputs.
        for _ in 0..<(ThreadPolicy.keptPasses + ThreadPolicy.firstInterval + 2) {
            try session.forward(input)
            used.insert(session.lastPassThreads)
            XCTAssertEqual(try single.layout.retained.sorted().map { try session.output(ofLayer: $0).values }, expected)
        }
        XCTAssertEqual(used, [1, 2])
    }
}
