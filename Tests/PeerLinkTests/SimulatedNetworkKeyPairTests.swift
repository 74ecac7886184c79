import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

/// The simulated network's connections take their ephemeral keys from the simulator's pool
/// (`X25519.SimulatorKeys`): a pair never used before in that network, chosen by the same
/// draws of its seeded generator as before the pool. No key repeats on either side, so
/// nothing from an earlier connection works on a later one.
@Suite struct SimulatedNetworkKeyPairTests {
    /// The ephemeral public key in a `hello` (the watch's) or `helloReply` (the phone's).
    static func ephemeral(_ bytes: [UInt8], _ type: RecordType) -> [UInt8]? {
        TamperSimulationTests.records(bytes).first { $0[3] == type.rawValue }
            .map { Array($0[RecordHeader.size..<(RecordHeader.size + X25519.keyBytes)]) }
    }

    /// A network of `seed` whose connection is reset `resets` times, `relay` seeing each write.
    static func run(seed: UInt64, resets: Int, relay: @escaping (DeviceRole, ConnectionID, [UInt8]) -> [[UInt8]],
                    observer: ((TestNetwork) -> Void)? = nil) throws -> TestNetwork {
        let net = try makeNetwork(seed: seed)
        net.relay = relay
        if let observer { net.observer = { [unowned net] _ in observer(net) } }
        net.runUntilQuiet(maxMs: 60_000)
        for _ in 0..<resets {
            net.resetConnection()
            net.runUntilQuiet(maxMs: 60_000)
        }
        return net
    }

    @Test func aConnectionsHandshakeRunsOnAPoolPairAndKeepsOneSecretForBothEnds() throws {
        let net = try makeNetwork(seed: 31)
        net.runUntilQuiet(maxMs: 60_000)
        #expect(net.watch.isConnected && net.phone.isConnected)
        #expect(net.usedKeyPairs.count == 1)
        let p = try #require(net.usedKeyPairs.first)
        let (phone, watch) = X25519.SimulatorKeys.pair(p)
        let i = try #require(X25519.PrivateKey.ephemeral(phone).poolIndex)
        let j = try #require(X25519.PrivateKey.ephemeral(watch).poolIndex)
        let kept = X25519.SimulatorKeys.secrets.withLock { $0[X25519.SimulatorKeys.slot(i, j)] }
        #expect(kept != nil && kept == X25519.sharedSecret(privateKey: phone, publicKey: X25519.publicKey(privateKey: watch)))
    }

    /// Past the pool's pairs too: every connection's keys are new on both sides.
    @Test(arguments: [31, 7] as [UInt64])
    func noEphemeralKeyRepeatsOnEitherSide(seed: UInt64) throws {
        var keys: [DeviceRole: [ConnectionID: [UInt8]]] = [.phone: [:], .watch: [:]]
        let net = try Self.run(seed: seed, resets: X25519.SimulatorKeys.pairs + 5) { from, id, bytes in
            if let e = Self.ephemeral(bytes, from == .phone ? .helloReply : .hello) { keys[from]![id] = e }
            return [bytes]
        }
        #expect(net.watch.isConnected && net.phone.isConnected)
        let connections = X25519.SimulatorKeys.pairs + 6
        for role in [DeviceRole.phone, .watch] {
            #expect(keys[role]!.count == connections, "\(role): a key seen on each connection")
            #expect(Set(keys[role]!.values).count == connections, "\(role): no key twice (seed \(seed))")
        }
        #expect(net.usedKeyPairs.count == X25519.SimulatorKeys.pairs)
    }

    /// A relay replays on the last connection what the watch sent on each earlier one; the
    /// phone's key is new, so the replayed `auth` does not open and the link stays down.
    @Test func anEarlierConnectionsHandshakeReplayedOnALaterOneIsRefused() throws {
        let seed: UInt64 = 31, resets = 12
        var watchWrites: [ConnectionID: [[UInt8]]] = [:]
        var last: ConnectionID = 0
        _ = try Self.run(seed: seed, resets: resets) { from, id, bytes in
            if from == .watch { watchWrites[id, default: []].append(bytes) }
            last = max(last, id)
            return [bytes]
        }
        let earlier = watchWrites.keys.filter { $0 < last }.sorted()
        #expect(earlier.count == resets)
        for source in earlier {
            var replayed = false, phoneUpOnLast = false
            let net = try Self.run(seed: seed, resets: resets, relay: { from, id, bytes in
                guard from == .watch, id == last else { return [bytes] }
                if replayed { return [] }
                replayed = true
                return [watchWrites[source]!.flatMap { $0 }]
            }, observer: { net in
                if net.phone.ctx.session.activeConnectionID == last { phoneUpOnLast = true }
            })
            #expect(replayed)
            #expect(!phoneUpOnLast, "connection \(source)'s handshake replayed on \(last) brought the phone up")
            #expect(net.logs.contains { $0.contains("phone") && $0.contains("failed authentication") }, "the replay was refused as tampered")
        }
    }

    @Test(arguments: [1, 99, 0xDEAD_BEEF] as [UInt64])
    func everyPairOnceThenTheDrawsThemselves(seed: UInt64) throws {
        let net = try makeNetwork(seed: seed)
        let pool = Set((0..<X25519.SimulatorKeys.pairs).map { X25519.SimulatorKeys.pair($0).phone + X25519.SimulatorKeys.pair($0).watch })
        var seen = Set<[UInt8]>()
        for _ in net.usedKeyPairs.count..<X25519.SimulatorKeys.pairs {
            let (phone, watch) = net.ephemeralKeyPair()
            #expect(pool.contains(phone + watch))
            #expect(seen.insert(phone + watch).inserted, "no pair twice")
        }
        #expect(net.usedKeyPairs.count == X25519.SimulatorKeys.pairs)
        let (phone, watch) = net.ephemeralKeyPair()
        #expect(!pool.contains(phone + watch) && phone.count == 32 && watch.count == 32)
        #expect(X25519.PrivateKey.ephemeral(phone).poolIndex == nil)
    }

    @Test func theGeneratorMovesAsTwoKeysMovedIt() throws {
        let a = try makeNetwork(seed: 44), b = try makeNetwork(seed: 44)
        #expect(a.rng.next() == b.rng.next())
        _ = a.ephemeralKeyPair()
        _ = b.ephemeralKey()
        _ = b.ephemeralKey()
        #expect(a.rng.next() == b.rng.next())
    }
}
