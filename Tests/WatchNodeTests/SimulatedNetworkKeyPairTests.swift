@testable import PeerLinkCore
@testable import PeerLinkSim
import Testing

/// The simulated network's connections take their ephemeral keys from the simulator's pool
/// (`X25519.SimulatorKeys`), a pair never used before in that network, chosen by the same
/// draws of its seeded generator as before the pool.
@Suite struct SimulatedNetworkKeyPairTests {
    @Test func aConnectionsHandshakeRunsOnAPoolPairAndKeepsItsSecret() throws {
        let net = try makeWatchNetwork(seed: 31)
        #expect(net.watch.isConnected && net.phone.isConnected)
        #expect(net.usedKeyPairs.count == 1)
        let p = try #require(net.usedKeyPairs.first)
        let (phone, watch) = X25519.SimulatorKeys.pair(p)
        let i = try #require(X25519.PrivateKey.ephemeral(phone).poolIndex)
        let j = try #require(X25519.PrivateKey.ephemeral(watch).poolIndex)
        let n = 2 * X25519.SimulatorKeys.perSide
        let (ij, ji) = X25519.SimulatorKeys.secrets.withLock { ($0[i * n + j], $0[j * n + i]) }
        #expect(ij != nil && ij == ji, "both ends' ee is kept, and it is one secret")
    }

    @Test func reconnectionsTakeNewPairs() throws {
        let net = try makeWatchNetwork(seed: 32)
        for _ in 0..<6 {
            net.setLink(up: false)
            net.runUntilQuiet()
            net.setLink(up: true)
            net.runUntilQuiet()
        }
        #expect(net.watch.isConnected && net.phone.isConnected)
        #expect(net.usedKeyPairs.count == 7, "the first connection and six more, each its own pair")
    }

    @Test(arguments: [1, 99, 0xDEAD_BEEF] as [UInt64])
    func everyPairOnceThenTheDrawsThemselves(seed: UInt64) throws {
        let net = try makeWatchNetwork(seed: seed)
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
        let a = try makeWatchNetwork(seed: 44), b = try makeWatchNetwork(seed: 44)
        #expect(a.rng.next() == b.rng.next())
        _ = a.ephemeralKeyPair()
        _ = b.ephemeralKey()
        _ = b.ephemeralKey()
        #expect(a.rng.next() == b.rng.next())
    }
}
