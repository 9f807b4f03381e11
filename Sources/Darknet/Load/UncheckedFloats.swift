/// Float32 weights not yet checked (for NaN and infinity), which a weight transform reads a run
/// at a time: where they lie in memory, or from a weights file into a staging buffer, so that a
/// layer's weights are never copied whole before they are laid out.
///
/// Workers may read disjoint runs at once: a file is read with `pread`, which keeps no position.
struct UncheckedFloats: WeightRuns, @unchecked Sendable {
    /// The loader's run, about 1 MB; tests and the fuzzer ask for shorter ones.
    static let defaultFloatsPerRun = 256 << 10

    /// Floats in all.
    let count: Int
    /// How many floats a weight transform reads at a time (whole blocks, at least one).
    let floatsPerRun: Int
    private let memory: UnsafePointer<Float>?
    private let file: WeightsFile?
    /// Where the floats start in the file.
    private let fileOffset: Int
    /// The layer and parameter being read, for errors.
    private let layer: Int?
    private let parameter: String

    /// Floats in memory, read where they lie.
    init(memory: UnsafePointer<Float>, count: Int, floatsPerRun: Int = defaultFloatsPerRun) {
        self.count = count
        self.floatsPerRun = floatsPerRun
        self.memory = memory
        file = nil
        fileOffset = 0
        layer = nil
        parameter = ""
    }

    /// `count` floats of `file` from byte `offset` (which the file held when it was opened), of
    /// `parameter` of `layer`.
    init(file: WeightsFile, offset: Int, count: Int, layer: Int?, parameter: String,
         floatsPerRun: Int = defaultFloatsPerRun) {
        self.count = count
        self.floatsPerRun = floatsPerRun
        memory = nil
        self.file = file
        fileOffset = offset
        self.layer = layer
        self.parameter = parameter
    }

    /// A staging buffer for `floats` floats that `floats(_:staging:)` reads to, or nil when the
    /// floats are in memory and need none. Call before the workers start.
    func stagingBuffer(floats: Int) -> UnsafeMutablePointer<Float>? {
        file?.stagingBuffer(floats * MemoryLayout<Float>.size).assumingMemoryBound(to: Float.self)
    }

    /// The floats `range`: in memory where they lie, else read from the file to `staging`.
    func floats(_ range: Range<Int>, staging: UnsafeMutablePointer<Float>?) -> Result<UnsafePointer<Float>, WeightsError> {
        if let memory { return .success(memory + range.lowerBound) }
        guard let file, let staging else { preconditionFailure("a file's floats are read to a staging buffer") }
        let offset = fileOffset + range.lowerBound * MemoryLayout<Float>.size
        if let failure = file.read(range.count * MemoryLayout<Float>.size, at: offset, into: staging) {
            return .failure(WeightsError(file: file.path, layer: layer, offset: failure.offset,
                                         reason: .unreadable(parameter: parameter, reason: failure.reason)))
        }
        return .success(UnsafePointer(staging))
    }

    /// The failure at the smaller byte offset: where the file first fell short.
    func reportsFirst(_ a: WeightsError, _ b: WeightsError) -> Bool { a.offset < b.offset }
}
