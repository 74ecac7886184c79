import Testing
@testable import PeerLinkCore

/// `FileReceiveChannel` alone, over its durable slice `FileReceiveState`.
@Suite("FileReceiveChannel")
struct FileReceiveChannelTests {
    static let peer: UInt64 = 0xAB
    static func config() -> LinkConfig {
        var c = LinkConfig(role: .phone, pairingSecret: nil)
        c.fileSyncIntervalBytes = 4
        c.fileAckIntervalBytes = 2
        c.maxFileVerifyFailures = 2
        return c
    }
    static func chunk(_ n: UInt64, at offset: Int64, _ bytes: [UInt8]) -> Frame {
        Frame(.fileChunk, FrameBodies.FileChunk.header(number: n, offset: offset) + bytes)
    }
    static func sent(_ out: ActionBuffer) -> [Frame] { out.actions.compactMap { if case .send(_, let f) = $0 { f } else { nil } } }
    static func ops(_ out: ActionBuffer) -> [FileOperation] { out.actions.compactMap { if case .file(let op) = $0 { op } else { nil } } }

    @Test func aFileIsWrittenCommittedInStepsCheckedAndDelivered() throws {
        var ch = FileReceiveChannel(shared: SharedLinkConfig(Self.config()), state: FileReceiveState())
        var state = FileReceiveState()
        var stats = LinkStats()
        var out = ActionBuffer()
        ch.onOffer(FrameBodies.FileOffer(number: 1, sizeBytes: 6, name: "a.bin", metadata: nil), on: 2, peerIncarnation: Self.peer,
                   state: &state, out: &out.fileReceive)
        let part = FileReceiveChannel.partPath(peerIncarnation: Self.peer, 1)
        #expect(Self.sent(out) == [Frame(.fileResume, FrameBodies.encodeVarints(1, 0))])
        #expect(Self.ops(out) == [.truncate(path: part, sizeBytes: 0)] && state.incoming?.number == 1)
        out = ActionBuffer()
        try ch.onChunk(Self.chunk(1, at: 0, [1, 2]), on: 2, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        try ch.onChunk(Self.chunk(1, at: 2, [3, 4]), on: 2, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        #expect(state.incoming?.committedBytes == 4, "synced and committed after 4 bytes")
        #expect(Self.ops(out).contains(.sync(path: part)))
        ch.onEnd(number: 1, sha256: [9], link: 2, peerIncarnation: Self.peer, state: &state, out: &out.fileReceive)
        #expect(!Self.ops(out).contains { if case .verify = $0 { true } else { false } }, "not all committed yet")
        out = ActionBuffer()
        try ch.onChunk(Self.chunk(1, at: 4, [5, 6]), on: 2, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        #expect(Self.ops(out).last == .verify(number: 1, path: part, sha256: [9]))
        #expect(stats.files.bytesReceived == 6)
        out = ActionBuffer()
        let file = ch.onVerified(number: 1, matches: true, link: 2, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        #expect(file?.path == FileReceiveChannel.inboxPath(peerIncarnation: Self.peer, number: 1, name: "a.bin"))
        #expect(Self.ops(out) == [.move(from: part, to: file!.path)])
        #expect(state.incoming == nil && state.lastDelivered == 1)
        // Offered again (our delivered acknowledgement was lost): said again, nothing written.
        out = ActionBuffer()
        ch.onOffer(FrameBodies.FileOffer(number: 1, sizeBytes: 6, name: "a.bin", metadata: nil), on: 2, peerIncarnation: Self.peer,
                   state: &state, out: &out.fileReceive)
        #expect(out.actions == [.send(2, Frame(.fileAck, FrameBodies.FileAck.delivered(number: 1).encode()))])
    }

    @Test func aGapIsAskedForOnceFromWhereTheWritingStands() throws {
        var ch = FileReceiveChannel(shared: SharedLinkConfig(Self.config()), state: FileReceiveState())
        var state = FileReceiveState()
        var stats = LinkStats()
        var out = ActionBuffer()
        ch.onOffer(FrameBodies.FileOffer(number: 4, sizeBytes: 8, name: "b", metadata: nil), on: 1, peerIncarnation: Self.peer, state: &state, out: &out.fileReceive)
        try ch.onChunk(Self.chunk(4, at: 0, [1]), on: 1, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        out = ActionBuffer()
        try ch.onChunk(Self.chunk(4, at: 3, [1]), on: 1, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        try ch.onChunk(Self.chunk(4, at: 5, [1]), on: 1, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        #expect(Self.sent(out) == [Frame(.fileResume, FrameBodies.encodeVarints(4, 1))], "one request for the gap at 1")
        #expect(Self.ops(out).isEmpty, "nothing past the gap is written")
        #expect(throws: ByteReaderError.self) {
            try ch.onChunk(Self.chunk(4, at: 1, Array(repeating: 0, count: 8)), on: 1, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        }
    }

    @Test func aFileFailingItsCheckStartsAgainThenFails() {
        var state = FileReceiveState()
        state.incoming = IncomingFile(number: 2, name: "c", sizeBytes: 1, sha256: [1], metadata: nil, committedBytes: 1, verifyFailures: 0)
        var ch = FileReceiveChannel(shared: SharedLinkConfig(Self.config()), state: state)
        #expect(ch.writtenBytes == 1, "writing resumes at the committed offset")
        var stats = LinkStats()
        var out = ActionBuffer()
        #expect(ch.onVerified(number: 2, matches: false, link: 1, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive) == nil)
        #expect(state.incoming?.committedBytes == 0 && state.incoming?.verifyFailures == 1 && ch.writtenBytes == 0)
        #expect(Self.sent(out) == [Frame(.fileResume, FrameBodies.encodeVarints(2, 0))])
        state.incoming?.committedBytes = 1
        out = ActionBuffer()
        _ = ch.onVerified(number: 2, matches: false, link: 1, peerIncarnation: Self.peer, state: &state, stats: &stats, out: &out.fileReceive)
        #expect(state.incoming == nil && stats.files.verifyFailures == 2)
        guard case .failed(2, let e)? = try? FrameBodies.FileAck.decode(Self.sent(out).first?.body ?? []) else { Issue.record("no failure"); return }
        #expect(e.code == .deliveryFailed)
    }
}
