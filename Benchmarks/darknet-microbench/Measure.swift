import BenchmarkKit
import Foundation

/// One thing to time. `setUp` allocates and fills everything the body touches; it runs
/// before, and its fixture's `tearDown` after, the timed region.
struct MicroBenchmark {
    /// Unique, filterable name: `sgemm L4`, `im2col L2`, `activation leaky`, ...
    let name: String
    /// Human-readable shape or parameters.
    let shape: String
    /// Floating-point operations of one call (0: not meaningful).
    let flops: Double
    /// Bytes one call reads plus writes (0: not meaningful).
    let bytes: Double
    /// How many layers of the network have exactly this benchmark's shape (totals multiply by it).
    var count: Int = 1
    /// For convolution paths: whether the planner picks this path for these layers.
    var planned: Bool = false
    let setUp: () -> Fixture
}

/// The memory and closures of one benchmark.
struct Fixture {
    /// The timed call.
    let body: () -> Void
    /// Restores the input before each timed call (for kernels that work in place); runs
    /// outside the timed region, and forces one call per sample.
    var reset: (() -> Void)? = nil
    /// Frees memory; may read the output so the work cannot be optimised away.
    var tearDown: () -> Void = {}
}

/// Per-call timings of one benchmark, in milliseconds.
struct Measurement {
    let benchmark: MicroBenchmark
    let wall: Stats
    let cpu: Stats
    /// Calls per timed sample (tiny kernels are repeated so a sample lasts about a millisecond).
    let inner: Int
    let runs: Int

    var gflops: Double? { benchmark.flops > 0 ? benchmark.flops / (wall.median / 1000) / 1e9 : nil }
    var gigabytesPerSecond: Double? { benchmark.bytes > 0 ? benchmark.bytes / (wall.median / 1000) / 1e9 : nil }
}

/// Warm-up, calibration, then `runs` timed samples.
func measure(_ benchmark: MicroBenchmark, runs: Int, warmup: Int) -> Measurement {
    let fixture = benchmark.setUp()
    defer { fixture.tearDown() }
    for _ in 0..<warmup {
        fixture.reset?()
        fixture.body()
    }
    var inner = 1
    if fixture.reset == nil {
        let start = Clock.now
        fixture.body()
        let once = max(Clock.now - start, 1)
        inner = Int(min(max(1_000_000 / once, 1), 10_000))
    }
    var wall: [Double] = [], cpu: [Double] = []
    wall.reserveCapacity(runs)
    cpu.reserveCapacity(runs)
    for _ in 0..<runs {
        fixture.reset?()
        let cpuStart = Clock.processCPU
        let start = Clock.now
        for _ in 0..<inner { fixture.body() }
        let elapsed = Clock.now - start
        cpu.append((Clock.processCPU - cpuStart) / Double(inner))
        wall.append(Double(elapsed) / 1e6 / Double(inner))
    }
    return Measurement(benchmark: benchmark, wall: Stats(wall), cpu: Stats(cpu), inner: inner, runs: runs)
}

/// Seeded pseudo-random floats (xorshift64*), so every run measures the same data.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    /// Uniform in `[0, 1)`.
    mutating func next() -> Float {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Float((state &* 0x2545_F491_4F6C_DD1D) >> 40) / Float(1 << 24)
    }

    /// Uniform in `[low, high)`.
    mutating func next(_ low: Float, _ high: Float) -> Float { low + (high - low) * next() }
}

/// A heap buffer of `count` floats, uniform in `[low, high)`, 64-byte aligned.
func randomBuffer(_ count: Int, seed: UInt64, low: Float = -1, high: Float = 1) -> UnsafeMutablePointer<Float> {
    let buffer = alignedBuffer(count)
    var random = SeededRandom(seed: seed)
    for i in 0..<count { buffer[i] = random.next(low, high) }
    return buffer
}

/// A zeroed heap buffer of `count` floats, 64-byte aligned (freed with `release`).
func alignedBuffer(_ count: Int) -> UnsafeMutablePointer<Float> {
    let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * 4, alignment: 64)
    raw.initializeMemory(as: Float.self, repeating: 0, count: max(count, 1))
    return raw.assumingMemoryBound(to: Float.self)
}

func release(_ buffers: UnsafeMutablePointer<Float>...) {
    for buffer in buffers { UnsafeMutableRawPointer(buffer).deallocate() }
}

/// Keeps a value alive so the work producing it is not optimised away.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
