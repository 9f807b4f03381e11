/// Floats a weight transform reads a run at a time: where they lie in memory, or (for the
/// loader, `UncheckedFloats`) read from a file into a staging buffer, so that a layer's weights
/// are never copied whole before they are laid out. Workers read disjoint runs at once.
package protocol WeightRuns: Sendable {
    /// What reading a run can fail with (`Never` in memory).
    associatedtype Failure: Error
    /// Floats in all.
    var count: Int { get }
    /// How many floats a transform reads at a time (whole blocks, at least one).
    var floatsPerRun: Int { get }
    /// A buffer for `floats` floats that `floats(_:staging:)` reads to, or nil when none is needed.
    /// Called before the workers start.
    func stagingBuffer(floats: Int) -> UnsafeMutablePointer<Float>?
    /// The floats `range`, where they lie or read to `staging`.
    func floats(_ range: Range<Int>, staging: UnsafeMutablePointer<Float>?) -> Result<UnsafePointer<Float>, Failure>
    /// Of two failures of different runs, the one to report (the first in the file).
    func reportsFirst(_ a: Failure, _ b: Failure) -> Bool
}

/// Weights in memory, read where they lie.
package struct MemoryWeightRuns: WeightRuns, @unchecked Sendable {
    let base: UnsafePointer<Float>
    package let count: Int

    package init(_ base: UnsafePointer<Float>, count: Int) {
        self.base = base
        self.count = count
    }

    package var floatsPerRun: Int { 256 << 10 }
    package func stagingBuffer(floats: Int) -> UnsafeMutablePointer<Float>? { nil }
    package func floats(_ range: Range<Int>, staging: UnsafeMutablePointer<Float>?) -> Result<UnsafePointer<Float>, Never> {
        .success(base + range.lowerBound)
    }
    package func reportsFirst(_ a: Never, _ b: Never) -> Bool {}
}
