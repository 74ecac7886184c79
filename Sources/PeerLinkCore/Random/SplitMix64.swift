/// A small deterministic generator (SplitMix64) for jitter: cores take a seed, never a system RNG.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1.
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(next() % span)
    }

    /// `count` bytes (a multiple of 8): each draw's eight bytes, least significant first. The
    /// simulator's pairing secrets and ephemeral keys are made this way.
    public mutating func nextBytes(_ count: Int) -> [UInt8] {
        precondition(count % 8 == 0, "nextBytes takes whole draws: a multiple of 8 bytes")
        var bytes = [UInt8](repeating: 0, count: count)
        for word in 0..<(count / 8) {
            let v = next()
            for b in 0..<8 { bytes[8 * word + b] = UInt8(truncatingIfNeeded: v >> (8 * b)) }
        }
        return bytes
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Double) -> Bool { percent > 0 && nextUnit() * 100 < percent }
}
