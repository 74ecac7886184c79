import Testing
@testable import PeerLinkCore

/// `Inbox` alone: content held while the app cannot take it, delivered in arrival order.
@Suite("Inbox")
struct InboxTests {
    static let file = ReceivedFile(path: "inbox/1-1-a.txt", name: "a.txt", metadata: nil, sizeBytes: 3)

    @Test func heldContentIsDeliveredInArrivalOrderAndItsRowsDeleted() {
        var inbox = Inbox()
        var batch = WriteBatch()
        inbox.hold(.userInfo(["n": 1], isComplication: false), into: &batch)
        inbox.hold(.file(Self.file), into: &batch)
        inbox.hold(.userInfo(["n": 2], isComplication: true), into: &batch)
        #expect(inbox.entries.map(\.seq) == [1, 2, 3] && inbox.nextSeq == 4)
        #expect(!batch.isEmpty)
        var out = ActionBuffer()
        #expect(inbox.flush(out: &out.inbox) == 1)
        #expect(inbox.isEmpty)
        let events = out.actions.compactMap { if case .deliver(let e) = $0 { e } else { nil } }
        #expect(events == [.didReceiveUserInfo(["n": 1], isComplication: false), .didReceiveFile(Self.file),
                           .didReceiveUserInfo(["n": 2], isComplication: true)])
        #expect(out.actions.contains(.file(.remove(path: Self.file.path))), "what the app left of the file is deleted")
        #expect(out.actions.filter { if case .persist = $0 { true } else { false } }.count == 3, "one row deleted with each delivery")
    }

    @Test func onlyTheNewestApplicationContextWaits() {
        var inbox = Inbox()
        var batch = WriteBatch()
        inbox.hold(.applicationContext(["v": 1]), into: &batch)
        inbox.hold(.userInfo(["n": 1], isComplication: false), into: &batch)
        inbox.hold(.applicationContext(["v": 2]), into: &batch)
        #expect(inbox.entries.map(\.content) == [.userInfo(["n": 1], isComplication: false), .applicationContext(["v": 2])])
        #expect(inbox.entries.map(\.seq) == [2, 3])
    }
}
