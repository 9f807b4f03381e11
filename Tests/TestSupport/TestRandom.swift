/// Deterministic pseudo-random numbers for test data (xorshift64): the same seed, the same
/// numbers on every machine. A `RandomNumberGenerator`, so `Int.random(in:using:)` takes it.
public struct TestRandom: RandomNumberGenerator {
    public private(set) var state: UInt64

    /// Seed 0 (which xorshift would never leave) is replaced by a fixed odd constant.
    public init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    public mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// A number in `0 ..< bound` (`next() % bound`).
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// One of 10,000 evenly spaced values in `0 ..< 1`.
    public mutating func unit() -> Float { Float(next() % 10_000) / 10_000 }
}
