import PeerLinkCore

/// What sealing costs, for each cipher the Noise handshake can be instantiated with: the
/// figures that chose the protocol's (docs/BENCHMARKS.md). `SecureChannel` seals a frame and
/// the other end opens it, as one direction of the link does.
///
/// - `seal_open_mb_s_<cipher>`: 256 KiB frames (a file chunk: four records each).
/// - `seal_open_ns_small_<cipher>`: a 64-byte frame (a message), one record.
enum SealingBench {
    static func figures(quick: Bool) throws -> [String: PlistValue] {
        var out: [String: PlistValue] = [:]
        for cipher in AEADCipher.allCases {
            var (a, b) = try ends(cipher)
            let big = [UInt8](repeating: 0x5A, count: 256 << 10)
            let rounds = quick ? 64 : 1_024
            var t0 = monotonicNs()
            for _ in 0..<rounds {
                let bytes = a.seal(Frame(.fileChunk, big))
                var at = 0
                while at < bytes.count {
                    let n = Int(bytes[at + 4]) << 8 | Int(bytes[at + 5])
                    _ = try b.open(bytes[(at + 6)..<(at + 6 + n)])
                    at += 6 + n
                }
            }
            let mbps = Double(rounds * big.count) / 1e6 / (Double(monotonicNs() - t0) / 1e9)
            let small = [UInt8](repeating: 0x5A, count: 64)
            let smallRounds = quick ? 10_000 : 200_000
            t0 = monotonicNs()
            for _ in 0..<smallRounds {
                let bytes = a.seal(Frame(.message, small))
                _ = try b.open(bytes[6...])
            }
            let ns = Double(monotonicNs() - t0) / Double(smallRounds)
            let name = cipher == .chaChaPoly ? "chacha" : "aesgcm"
            out["seal_open_mb_s_\(name)"] = .double(mbps.rounded())
            out["seal_open_ns_small_\(name)"] = .double(ns.rounded())
        }
        return out
    }

    /// The two ends of a connection after a handshake with `cipher`.
    static func ends(_ cipher: AEADCipher) throws -> (SecureChannel, SecureChannel) {
        let psk = secureRandomBytes(32)
        var i = NoiseHandshake(isInitiator: true, psk: psk, ephemeralPrivateKey: secureRandomBytes(32), prologue: LinkSession.noisePrologue, cipher: cipher)
        var r = NoiseHandshake(isInitiator: false, psk: psk, ephemeralPrivateKey: secureRandomBytes(32), prologue: LinkSession.noisePrologue, cipher: cipher)
        _ = try r.readFirstMessage(try i.writeFirstMessage())
        let (m2, rk) = try r.writeSecondMessage()
        let ik = try i.readSecondMessage(m2).keys
        return (SecureChannel(keys: ik, rekeyAfterBytes: 16 << 20), SecureChannel(keys: rk, rekeyAfterBytes: 16 << 20))
    }
}
