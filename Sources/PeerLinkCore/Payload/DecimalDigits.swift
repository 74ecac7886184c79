/// Unsigned integers written in decimal straight into a byte buffer: the simulator's trace
/// lines and the frames' labels are made a byte at a time on every frame a traced run
/// carries, where interpolation cost more than all the rest of the line.
package enum DecimalDigits {
    /// How many digits `n` has in decimal (1 for 0).
    package static func count(_ n: UInt64) -> Int {
        var d = 1, t = n
        while t >= 10 { t /= 10; d += 1 }
        return d
    }

    /// Writes `n` in decimal at `p` (`count(n)` bytes); returns the end.
    package static func write(_ n: UInt64, to p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let d = count(n)
        var m = n, i = d
        repeat {
            i -= 1
            p[i] = UInt8(ascii: "0") + UInt8(m % 10)
            m /= 10
        } while i > 0
        return p + d
    }
}
