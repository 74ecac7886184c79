import Synchronization

extension X25519 {
    /// The simulator's ephemeral keys: `pairs` fixed pairs, pair `p` being phone key `p` and
    /// watch key `pairs + p`. Each key object (its public half computed by OpenSSL), and each
    /// Diffie-Hellman secret of two pool keys, is made once per process and kept: a sweep
    /// opens about 25 connections a seed, and making two ephemeral keys and a shared secret
    /// for each was a fifth of a seed's time.
    ///
    /// Only the simulator draws from the pool (`SimulatedNetwork`), and a network never uses a
    /// pair twice: no key repeats on either side of its connections, so an earlier
    /// connection's handshake replayed on a later one is refused as with fresh keys. What is
    /// kept is what OpenSSL computes from the same inputs. One secret serves both ends of a
    /// pair: both keys are pool keys, whose public halves OpenSSL made from their private
    /// ones, so DH(a, b·G) = DH(b, a·G) byte for byte. A node process draws fresh keys from the
    /// system's generator and never touches the pool (the lookups below are skipped until
    /// the pool was first asked for a key).
    package enum SimulatorKeys {
        /// The number of pairs (a network opening more connections uses drawn keys after).
        /// 128: with 64, a morning-run sweep had 251 connections in 200 seeds past the pool, each
        /// making two keys and two secrets afresh (2.3 M instructions); with 128, none.
        package static let pairs = 128

        /// The private keys of pair `pair` (in `0..<pairs`): the phone's side and the watch's.
        package static func pair(_ pair: Int) -> (phone: [UInt8], watch: [UInt8]) {
            precondition((0..<pairs).contains(pair), "a pair is in 0..<\(pairs)")
            inUse.store(true, ordering: .relaxed)
            return (privateKeys[pair], privateKeys[pairs + pair])
        }

        static let inUse = Atomic<Bool>(false)

        /// The pool's private keys: 32 bytes each from a generator of fixed seed (any 32 bytes
        /// are an X25519 private key).
        static let privateKeys: [[UInt8]] = {
            var rng = SplitMix64(seed: 0x5EED_0F_E93E_3E4A)
            return (0..<(2 * pairs)).map { _ in rng.nextBytes(keyBytes) }
        }()

        /// The key objects made so far (each when first used: a run that opens one connection
        /// makes two, as it did before the pool).
        static let keys = Mutex<[PrivateKey?]>(Array(repeating: nil, count: 2 * pairs))

        /// The secret of pool keys `i` and `j`, once derived, at `slot(i, j)`.
        static let secrets = Mutex<[[UInt8]?]>(Array(repeating: nil, count: 4 * pairs * pairs))

        static func slot(_ i: Int, _ j: Int) -> Int { min(i, j) * 2 * pairs + max(i, j) }

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

        /// The secret of pool keys `i` and `j`: kept, or derived by `derive` and kept.
        static func secret(_ i: Int, _ j: Int, derive: () -> [UInt8]?) -> [UInt8]? {
            let slot = slot(i, j)
            if let s = secrets.withLock({ $0[slot] }) { return s }
            guard let s = derive() else { return nil }
            secrets.withLock { $0[slot] = s }
            return s
        }
    }
}
