import Testing
@testable import PeerLinkCore

/// `cancel()` of a file transfer once its whole content and hash are on the wire: the
/// receiver may deliver it before the cancel arrives ("if the data has already been
/// transferred, calling this method has no effect"), so the sender asks and is told which.
@Suite("File cancel after the end went out")
struct FileCancelTests {
    /// Runs the wire, keeping back (not delivering) the frames `hold` picks.
    static func run(_ p: inout SessionPair, holding hold: (DeviceRole, Frame) -> Bool) -> [(DeviceRole, Frame)] {
        var held: [(DeviceRole, Frame)] = []
        while !p.wire.isEmpty {
            let (to, f) = p.wire.removeFirst()
            if hold(to, f) { held.append((to, f)) } else { p.deliver(to, f) }
        }
        return held
    }

    static func isDeliveredAck(_ to: DeviceRole, _ f: Frame) -> Bool {
        to == .watch && f.kind == .fileAck && (try? FrameBodies.FileAck.decode(f.body)) == .delivered(number: 1)
    }

    static func start(_ p: inout SessionPair, _ name: String, bytes: Int = 600_000, seed: UInt64 = 1) throws -> FileTransfer {
        try p.watchFiles.write(name, offset: 0, bytes: LinkFileTests.content(bytes, seed: seed))
        let t = try p.watch.transferFile(path: name, metadata: nil, now: p.now).get()
        p.collect()
        return t
    }

    @Test func aFileDeliveredBeforeTheCancelArrivesIsReportedDelivered() throws {
        var p = SessionPair.connected()
        let t = try Self.start(&p, "a.bin")
        let held = Self.run(&p, holding: Self.isDeliveredAck)
        #expect(LinkFileTests.received(p).count == 1 && held.count == 1, "delivered; its acknowledgement kept back")
        let cancelled = p.watch.cancelFile(id: t.id)
        #expect(cancelled)
        #expect(p.watch.outstandingFileTransfers.isEmpty)
        #expect(p.watch.persistent.outgoingFiles.first?.isCancelled == true, "kept, cancelled, until the phone answers")
        p.collect()
        #expect(p.wire.last?.frame.kind == .fileCancel)
        p.run()
        let done = LinkFileTests.finished(p)
        #expect(done.count == 1 && done[0].0.id == t.id && done[0].1 == nil, "the cancel came too late: finished without error")
        #expect(p.watch.persistent.outgoingFiles.isEmpty)
    }

    @Test func aFileWhoseEndWasLostIsNeverDeliveredAndTheNextFileGoes() throws {
        var p = SessionPair.connected()
        let t = try Self.start(&p, "a.bin")
        let held = Self.run(&p) { to, f in f.kind == .fileEnd }
        #expect(held.count == 1 && LinkFileTests.received(p).isEmpty)
        let cancelled = p.watch.cancelFile(id: t.id)
        #expect(cancelled)
        let next = try Self.start(&p, "b.bin", seed: 2)
        p.run()
        #expect(p.phoneFiles.list("inbox").isEmpty, "the cancelled file's part is deleted; b was delivered and not kept")
        for (to, f) in held { p.deliver(to, f) }  // the lost end turns up late: nothing to check it against
        p.run()
        #expect(LinkFileTests.received(p).map(\.name) == ["b.bin"], "a is never delivered")
        #expect(LinkFileTests.finished(p).map(\.0.id) == [next.id], "no didFinish for the cancelled file")
        #expect(p.watch.persistent.outgoingFiles.isEmpty)
    }

    @Test func aLostAnswerIsAskedForAgain() throws {
        var p = SessionPair.connected()
        let t = try Self.start(&p, "a.bin")
        _ = Self.run(&p) { to, f in f.kind == .fileEnd }
        let cancelled = p.watch.cancelFile(id: t.id)
        #expect(cancelled)
        p.collect()
        p.wire.removeAll()  // the fileCancel is lost
        p.advance(p.watch.config.retransmitAfterMs)
        p.collect()
        #expect(p.wire.map(\.frame.kind) == [.ping], "first a probe: is the cancel lost or still crossing?")
        p.deliver(.phone, p.wire.removeFirst().frame)
        #expect(p.wire.map(\.frame.kind) == [.pong])
        p.deliver(.watch, p.wire.removeFirst().frame)
        #expect(p.wire.map(\.frame.kind) == [.fileCancel], "the pong came back without an answer: asked again, nothing else sent")
        p.run()
        #expect(p.watch.persistent.outgoingFiles.isEmpty)
        #expect(LinkFileTests.received(p).isEmpty && LinkFileTests.finished(p).isEmpty)
    }

    @Test(arguments: [true, false])
    func cancelledWhileTheLinkIsDownTheHandshakeDecides(deliveredBeforeTheDrop: Bool) throws {
        var p = SessionPair.connected()
        let t = try Self.start(&p, "a.bin")
        _ = Self.run(&p) { to, f in deliveredBeforeTheDrop ? Self.isDeliveredAck(to, f) : f.kind == .fileEnd }
        p.disconnect()
        let cancelled = p.watch.cancelFile(id: t.id)
        #expect(cancelled)
        #expect(p.watch.persistent.outgoingFiles.first?.isCancelled == true)
        p.connect()
        p.run()
        #expect(LinkFileTests.received(p).count == (deliveredBeforeTheDrop ? 1 : 0))
        #expect(LinkFileTests.finished(p).map(\.0.id) == (deliveredBeforeTheDrop ? [t.id] : []))
        #expect(p.watch.persistent.outgoingFiles.isEmpty)
        #expect(!p.wire.contains { $0.frame.kind == .fileOffer }, "a cancelled file is never offered again")
    }

    @Test func cancelledAckRoundTripsAndIsKeptAcrossRestarts() throws {
        let ack = FrameBodies.FileAck.cancelled(number: 7)
        #expect(try FrameBodies.FileAck.decode(ack.encode()) == ack)
        let f = OutgoingFile(number: 3, path: "a.bin", name: "a.bin", sizeBytes: 10, metadata: ["k": "v"], createdMs: 5, isCancelled: true)
        let store = MemoryStore()
        var b = WriteBatch()
        LinkPersistence.metaWrite(LinkPersistent(incarnation: 9), into: &b)
        b.put(LinkPersistence.filesOut, storeKey(3), LinkPersistence.encodeOutgoing(f))
        try store.commit(b)
        #expect(try LinkPersistence.load(from: store, newIncarnation: 1).outgoingFiles == [f])
        var plain = f
        plain.isCancelled = false
        #expect(LinkPersistence.encodeOutgoing(plain) == LinkPersistence.encodeOutgoing(f).dropLast(), "rows of files not cancelled are as before")
    }
}
