import PeerLinkCore

/// The trace line of one carried frame, `"\(now) \(direction) \(kind) \(bytes)B \(fate)"`,
/// written into one buffer: built by interpolation it cost ~4 k instructions a frame (eight
/// appends, each growing the string, and two integer descriptions), on every frame of a run.
enum FrameTraceLine {
    static func make(at now: EpochMs, _ direction: String, _ kind: String, bytes: Int, _ fate: String) -> String {
        var direction = direction, kind = kind, fate = fate
        let capacity = 20 + 1 + direction.utf8.count + 1 + kind.utf8.count + 1 + 20 + 2 + fate.utf8.count
        return String(unsafeUninitializedCapacity: capacity) { out in
            var i = 0
            func put(_ s: inout String) {
                s.withUTF8 { b in
                    guard let from = b.baseAddress, !b.isEmpty else { return }
                    (out.baseAddress! + i).update(from: from, count: b.count)
                    i += b.count
                }
            }
            func put(_ v: Int64) {
                if v < 0 { out[i] = UInt8(ascii: "-"); i += 1 }
                var m = v.magnitude
                let first = i
                repeat {
                    out[i] = UInt8(ascii: "0") + UInt8(m % 10)
                    i += 1
                    m /= 10
                } while m > 0
                var (a, b) = (first, i - 1)
                while a < b { out.swapAt(a, b); a += 1; b -= 1 }
            }
            func space() { out[i] = UInt8(ascii: " "); i += 1 }
            put(now); space()
            put(&direction); space()
            put(&kind); space()
            put(Int64(bytes)); out[i] = UInt8(ascii: "B"); i += 1; space()
            put(&fate)
            return i
        }
    }
}
