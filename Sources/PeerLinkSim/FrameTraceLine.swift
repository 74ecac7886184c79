import PeerLinkCore

/// The trace line of one carried frame, `"\(now) \(direction) \(kind) \(bytes)B \(fate)"`,
/// written into one buffer: built by interpolation it cost ~4 k instructions a frame (eight
/// appends, each growing the string, and two integer descriptions), on every frame of a run.
/// The parts are copied through one moving pointer (nested functions capturing the buffer and
/// its index cost an exclusivity check and a closure context on every part).
enum FrameTraceLine {
    static func make(at now: EpochMs, _ direction: String, _ kind: String, bytes: Int, _ fate: String) -> String {
        let capacity = 20 + 1 + direction.utf8.count + 1 + kind.utf8.count + 1 + 20 + 2 + fate.utf8.count
        return String(unsafeUninitializedCapacity: capacity) { out in
            let start = out.baseAddress!
            var p = put(now, start)
            p.pointee = UInt8(ascii: " ")
            p = PointerText.put(direction, at: p + 1)
            p.pointee = UInt8(ascii: " ")
            p = PointerText.put(kind, at: p + 1)
            p.pointee = UInt8(ascii: " ")
            p = put(Int64(bytes), p + 1)
            p[0] = UInt8(ascii: "B")
            p[1] = UInt8(ascii: " ")
            p = PointerText.put(fate, at: p + 2)
            return p - start
        }
    }

    /// Writes `v` in decimal at `p`; returns the end.
    @inline(__always)
    private static func put(_ v: Int64, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard v < 0 else { return DecimalDigits.write(v.magnitude, to: p) }
        p.pointee = UInt8(ascii: "-")
        return DecimalDigits.write(v.magnitude, to: p + 1)
    }
}
