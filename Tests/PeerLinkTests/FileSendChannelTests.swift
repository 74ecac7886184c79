import Testing
@testable import PeerLinkCore

/// `FileSendChannel` alone, over its durable queue `FileSendQueue`.
@Suite("FileSendChannel")
struct FileSendChannelTests {
    static func config() -> LinkConfig {
        var c = LinkConfig(role: .watch, pairingSecret: nil)
        c.fileChunkBytes = 4
        c.fileWindowBytes = 8
        return c
    }
    static func chunks(_ out: ActionBuffer) -> [Int64] {
        out.actions.compactMap { if case .sendFileChunk(_, _, _, let offset, _) = $0 { offset } else { nil } }
    }
    static func ready(_ ch: inout FileSendChannel, _ q: inout FileSendQueue, size: Int64) -> OutgoingFile {
        var out = ActionBuffer()
        let f = ch.enqueue(path: "out/a.bin", name: "a.bin", metadata: nil, now: 0, queue: &q, out: &out.fileSend)
        #expect(out.actions == [.file(.measure(number: f.number, path: "out/a.bin"))])
        #expect(ch.measured(number: f.number, sizeBytes: size, queue: &q, out: &out.fileSend) == .ready)
        return q.files[0]
    }

    @Test func theHeadFileIsOfferedThenStreamedWithinTheWindowThenEnded() throws {
        var ch = FileSendChannel(shared: SharedLinkConfig(Self.config()))
        var q = FileSendQueue()
        let f = Self.ready(&ch, &q, size: 10)
        var out = ActionBuffer()
        #expect(ch.needsOffer(f))
        #expect(ch.offer(f, on: 1, queue: &q, out: &out.fileSend), "highestFileSent moved")
        #expect(q.highestFileSent == 1 && ch.awaitsAck && !ch.canStream(f))
        #expect(try !ch.onResume(Frame(.fileResume, FrameBodies.encodeVarints(2, 0)), queue: q), "another file")
        #expect(try ch.onResume(Frame(.fileResume, FrameBodies.encodeVarints(1, 0)), queue: q))
        out = ActionBuffer()
        ch.stream(f, on: 1, out: &out.fileSend)
        #expect(Self.chunks(out) == [0, 4], "8 bytes unacknowledged at most")
        let progressed = ch.onProgress(number: 1, offset: 8)
        #expect(progressed)
        out = ActionBuffer()
        ch.stream(f, on: 1, out: &out.fileSend)
        #expect(Self.chunks(out) == [8])
        #expect(out.actions.last == .sendFileEnd(1, number: 1, path: "out/a.bin", sizeBytes: 10))
        #expect(ch.highestEndSent == 1)
        // A retransmission starts again at what the receiver committed.
        ch.rewind()
        out = ActionBuffer()
        ch.stream(f, on: 1, out: &out.fileSend)
        #expect(Self.chunks(out) == [8] && out.actions.count == 2)
        out = ActionBuffer()
        #expect(ch.finish(number: 1, error: nil, queue: &q, out: &out.fileSend))
        guard case .deliver(.didFinishFileTransfer(let t, nil))? = out.actions.last else { Issue.record("no didFinish"); return }
        #expect(t.isDelivered && t.acknowledgedBytes == 10 && q.files.isEmpty && ch.head == nil)
    }

    @Test func aCancelDropsAFileThePeerCannotHaveCompletedElseAsks() {
        var ch = FileSendChannel(shared: SharedLinkConfig(Self.config()))
        var q = FileSendQueue()
        let f = Self.ready(&ch, &q, size: 4)
        var out = ActionBuffer()
        _ = ch.offer(f, on: 1, queue: &q, out: &out.fileSend)
        out = ActionBuffer()
        #expect(ch.cancel(id: "f1", link: 1, queue: &q, out: &out.fileSend) == .dropped(wasHead: true))
        #expect(out.actions.last == .send(1, Frame(.fileCancel, FrameBodies.encodeVarint(1))) && q.files.isEmpty)
        #expect(ch.cancel(id: "f1", link: 1, queue: &q, out: &out.fileSend) == .notFound)
        // Without a link, the head file may have been completed on the last one: ask at the next.
        let g = Self.ready(&ch, &q, size: 4)
        ch.linkChanged()
        #expect(ch.cancel(id: "f\(g.number)", link: nil, queue: &q, out: &out.fileSend) == .marked)
        #expect(q.files[0].isCancelled)
        out = ActionBuffer()
        ch.dropCancelled(queue: &q, out: &out.fileSend)
        #expect(q.files.isEmpty && out.actions.count == 1)
    }

    @Test func badArgumentsAreRefusedBeforeAnythingIsQueued() {
        #expect(failCode(FileSendChannel.validate(path: "/etc/passwd", metadata: nil)) == .invalidParameter)
        #expect(failCode(FileSendChannel.validate(path: "a/../b", metadata: nil)) == .invalidParameter)
        #expect(failCode(FileSendChannel.validate(path: "a.txt", metadata: [1])) == .payloadUnsupportedTypes)
        #expect((try? FileSendChannel.validate(path: "dir/a.txt", metadata: ["k": 1]).get()) == "a.txt")
    }
}
