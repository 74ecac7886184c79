import Synchronization

extension X25519 {
    /// The simulator's ephemeral keys: 32 fixed private keys, 16 for the phone's side of a
    /// connection (0..<16) and 16 for the watch's (16..<32). Each key's public half, and each
    /// Diffie-Hellman secret of a pool key with a pool key's public half, is computed once per
    /// process and kept: a sweep opens about 25 connections a seed, and making two ephemeral
    /// keys and a shared secret each time was a fifth of a seed's time.
    ///
    /// Only the simulator draws from the pool (`SimulatedNetwork`, which also sees that no
    /// pair of keys repeats within one network, so no two of its connections share transport
    /// keys). Everything kept is a pure function of its inputs, made by OpenSSL from them: the
    /// handshake still runs in full, byte for byte as with any other keys. A node process
    /// draws fresh keys from the system's generator and never touches the pool (the lookups
    /// below are skipped until the pool was first asked for a key).
    public enum SimulatorKeys {
        /// Keys per side; `pair` takes one of each, so 256 pairs.
        public static let perSide = 16
        /// The number of distinct (phone key, watch key) pairs.
        public static var pairs: Int { perSide * perSide }

        /// The private key of a pair's phone side and watch side (`pair` in `0..<pairs`).
        public static func pair(_ pair: Int) -> (phone: [UInt8], watch: [UInt8]) {
            precondition((0..<pairs).contains(pair), "a pair is in 0..<\(pairs)")
            inUse.store(true, ordering: .relaxed)
            return (privateKeys[pair / perSide], privateKeys[perSide + pair % perSide])
        }

        static let inUse = Atomic<Bool>(false)

        /// The pool's private keys: key `i` is SHA-256 of "PeerLink simulator ephemeral key i".
        static let privateKeys: [[UInt8]] = (0..<(2 * perSide)).map { i in
            SHA256.hash(Array("PeerLink simulator ephemeral key \(i)".utf8))
        }

        /// The key objects made so far (each when first used: a run that opens one connection
        /// makes two, as it did before the pool).
        static let keys = Mutex<[PrivateKey?]>(Array(repeating: nil, count: 2 * perSide))

        /// `secrets[i * 2 * perSide + j]`: DH(key i, public key of key j), once derived.
        static let secrets = Mutex<[[UInt8]?]>(Array(repeating: nil, count: 4 * perSide * perSide))

        /// The pool's key with these private bytes, if the pool is in use and has it.
        static func key(_ bytes: [UInt8]) -> PrivateKey? {
            guard inUse.load(ordering: .relaxed), let i = privateKeys.firstIndex(of: bytes) else { return nil }
            if let k = keys.withLock({ $0[i] }) { return k }
            let made = PrivateKey(bytes, poolIndex: i)
            return keys.withLock { k in
                if k[i] == nil { k[i] = made }
                return k[i]!
            }
        }

        /// The index of the pool key, among those made, whose public key is `publicKey`.
        static func index(ofPublicKey publicKey: [UInt8]) -> Int? {
            keys.withLock { $0.firstIndex { $0?.publicKey == publicKey } }
        }

        /// DH(key `i`, public key of key `j`): kept, or derived by `derive` and kept.
        static func secret(_ i: Int, _ j: Int, derive: () -> [UInt8]?) -> [UInt8]? {
            let slot = i * 2 * perSide + j
            if let s = secrets.withLock({ $0[slot] }) { return s }
            guard let s = derive() else { return nil }
            secrets.withLock { $0[slot] = s }
            return s
        }
    }
}
