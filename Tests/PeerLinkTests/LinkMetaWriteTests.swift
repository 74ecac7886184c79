@testable import PeerLinkCore
import Testing

/// The link's metadata row is written again after every change the session makes; one event's
/// batch must hold it once, with its latest value.
@Suite struct LinkMetaWriteTests {
    static func metaWrites(_ b: WriteBatch) -> [[UInt8]] {
        b.writes.compactMap { if case .put(let t, _, let v) = $0, t == LinkPersistence.meta { v } else { nil } }
    }

    @Test func anEventThatQueuesFiftyTransfersCommitsTheLinksMetadataOnceWithItsLatestValue() throws {
        let net = try makeNetwork(seed: 41)
        #expect(net.runUntilQuiet(maxMs: 60_000))
        let store = net.store(.watch)
        let before = try LinkPersistence.load(from: store, newIncarnation: 0).nextSeq
        net.withWatch { ctx in
            for i in 0..<50 { _ = ctx.transferUserInfo(["n": .int(Int64(i))]) }
        }
        let batch = store.lastCommittedBatch
        let outboxPuts = batch.writes.filter { if case .put(let t, _, _) = $0 { t == LinkPersistence.outbox } else { false } }
        #expect(outboxPuts.count == 50)
        #expect(Self.metaWrites(batch).count == 1)
        #expect(try LinkPersistence.load(from: store, newIncarnation: 0).nextSeq == before + 50)
        // And the fifty arrive, as before.
        #expect(net.runUntilQuiet(maxMs: 60_000))
        #expect(net.phone.app.events.filter { if case .didReceiveUserInfo = $0 { true } else { false } }.count == 50)
    }
}
