import PeerLinkCore
import PhoneNode
import Testing

/// The hybrid clock's floor through the phone's engine, over one store and one set of files
/// across restarts: a store that went back more than a lease (60 s of stamps) is found behind
/// at launch, and its clock starts past every stamp it lost, whatever the wall clock says.
@Suite("The phone's clock floor across a rollback")
struct PhoneClockFloorTests {
    static func open(_ store: MemoryStore, _ files: MemoryFileStorage, now: EpochMs) throws -> NodeEngine<PhoneApp> {
        try NodeEngine(app: PhoneApp(), role: .phone, store: store, config: LinkConfig(role: .phone, pairingSecret: nil),
                       calendar: try #require(LocalCalendar(identifier: "Asia/Tokyo")), language: .ja, now: now, seed: 7,
                       newIncarnation: 101, files: files)
    }

    static func stepGoalStamp(_ e: NodeEngine<PhoneApp>, now: EpochMs) throws -> HLCTimestamp {
        let r = e.command(try #require(NodeCommand(line: "query record settings settings")), now: now)
        let s = try #require(r.value["stamps"]?["stepGoal"]?.arrayValue)
        return HLCTimestamp(wallMs: try #require(s[0].intValue), counter: UInt32(try #require(s[1].intValue)), replica: UInt16(try #require(s[2].intValue)))
    }

    @Test func aStoreThatWentBackPastTheLeaseStartsPastItsLostStamps() throws {
        let t0 = PhoneFixture.local("Asia/Tokyo", 2026, 6, 3, 12)
        let store = MemoryStore(), files = MemoryFileStorage()
        store.undoJournalLimit = 10_000
        var e = try Self.open(store, files, now: t0)
        _ = e.command(try #require(NodeCommand(line: "settings step-goal 7000")), now: t0)
        let kept = store.undoableCommits
        let t1 = t0 + 2 * ClockFloor.leaseMs
        _ = e.command(try #require(NodeCommand(line: "settings step-goal 8000")), now: t1)
        let lost = try Self.stepGoalStamp(e, now: t1)
        #expect(lost.wallMs == t1)
        #expect(ClockFloor.load(files).floorMs == t1 + ClockFloor.leaseMs)

        // The store loses the second write's commits; the node starts again at the same instant.
        #expect(store.rollBack(commits: store.undoableCommits - kept) > 0)
        e = try Self.open(store, files, now: t1)
        #expect(try Self.stepGoalStamp(e, now: t1).wallMs == t0, "the store went back")
        _ = e.command(try #require(NodeCommand(line: "settings step-goal 9000")), now: t1)
        let next = try Self.stepGoalStamp(e, now: t1)
        #expect(next > lost, "\(next) after the lost \(lost)")
        #expect(next.wallMs == t1 + ClockFloor.leaseMs)
        #expect(e.drainOutput().contains { if case .log(_, let m) = $0 { m.contains("starts past its floor") } else { false } })
    }

    @Test func aNormalRestartKeepsTheClock() throws {
        let t0 = PhoneFixture.local("Asia/Tokyo", 2026, 6, 3, 12)
        let store = MemoryStore(), files = MemoryFileStorage()
        var e = try Self.open(store, files, now: t0)
        _ = e.command(try #require(NodeCommand(line: "settings step-goal 7000")), now: t0)
        e = try Self.open(store, files, now: t0 + 1_000)
        _ = e.command(try #require(NodeCommand(line: "settings step-goal 8000")), now: t0 + 1_000)
        #expect(try Self.stepGoalStamp(e, now: t0 + 1_000).wallMs == t0 + 1_000, "no jump to the floor")
    }
}
