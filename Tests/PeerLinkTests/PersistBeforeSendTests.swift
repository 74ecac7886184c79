import Testing
@testable import PeerLinkCore

/// The persist-before-send contract (`LinkAction`, `NodeEngine.finish`): what one event's
/// frames depend on is in the same event's commit, which the engine makes before it releases
/// any of them.
@Suite("Persist before send")
struct PersistBeforeSendTests {
    /// Commits `actions`' batches to `store` as the engine does, then checks every user-info
    /// frame and file offer among them against what is now durable.
    static func commitThenCheck(_ actions: [LinkAction], _ store: MemoryStore) throws -> Int {
        for a in actions { if case .persist(let b) = a { try store.commit(b) } }
        let durable = try LinkPersistence.load(from: store, newIncarnation: 0)
        var checked = 0
        for case .send(_, let f) in actions {
            switch f.kind {
            case .userInfo:
                let seq = try FrameBodies.UserInfo.decode(f.body).seq
                #expect(seq <= durable.highestSeqSent, "user info \(seq) left before highestSeqSent covered it")
                #expect(durable.outbox.contains { $0.seq == seq }, "user info \(seq) left before its outbox row")
                checked += 1
            case .fileOffer:
                let n = try FrameBodies.FileOffer.decode(f.body).number
                #expect(n <= durable.highestFileSent, "file \(n) was offered before highestFileSent covered it")
                #expect(durable.outgoingFiles.contains { $0.number == n && $0.sizeBytes >= 0 }, "file \(n) was offered before its row")
                checked += 1
            default: break
            }
        }
        return checked
    }

    @Test func everyUserInfoAndFileOfferIsCoveredByItsEventsCommit() throws {
        var p = SessionPair.connected()
        var checked = 0
        for i in 0..<4 {
            _ = p.watch.transferCurrentComplicationUserInfo(["c": .int(Int64(i))], localDay: CivilDate(year: 2026, month: 6, day: 1), now: p.now)
            _ = p.watch.transferUserInfo(["i": .int(Int64(i))], now: p.now)
            checked += try Self.commitThenCheck(p.watch.drainActions(), p.watchStore)
        }
        _ = try p.watch.transferFile(path: "out/a.bin", metadata: nil, now: p.now).get()
        checked += try Self.commitThenCheck(p.watch.drainActions(), p.watchStore)
        p.watch.onFileMeasured(number: 1, sizeBytes: 10, now: p.now)
        checked += try Self.commitThenCheck(p.watch.drainActions(), p.watchStore)
        #expect(checked == 5, "four user infos (the watch sends no complication user info) and one offer")
    }
}
