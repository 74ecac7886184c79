import Testing
@testable import PeerLinkCore

@Suite("File transfer")
struct LinkFileTests {
    static func content(_ n: Int, seed: UInt64 = 1) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var out = [UInt8]()
        out.reserveCapacity(n + 8)
        while out.count < n { withUnsafeBytes(of: rng.next()) { out.append(contentsOf: $0) } }
        return Array(out.prefix(n))
    }

    static func received(_ p: SessionPair) -> [ReceivedFile] {
        p.phoneEvents.compactMap { if case .didReceiveFile(let f) = $0 { f } else { nil } }
    }

    static func finished(_ p: SessionPair) -> [(FileTransfer, WCError?)] {
        p.watchEvents.compactMap { if case .didFinishFileTransfer(let t, let e) = $0 { (t, e) } else { nil } }
    }

    @Test func fileGoesInChunksWithProgressFromZeroToOneAndLandsInTheInbox() throws {
        var p = SessionPair.connected()
        let data = Self.content(1_000_000)
        try p.watchFiles.write("run.bin", offset: 0, bytes: data)
        let t = try p.watch.transferFile(path: "run.bin", metadata: ["workout": "w1"], now: p.now).get()
        #expect(t.progress == 0)
        p.collect()
        var progress: [Double] = [p.watch.outstandingFileTransfers[0].progress]
        var chunkSizes: [Int] = []
        while !p.wire.isEmpty {
            let (to, f) = p.wire.removeFirst()
            if f.kind == .fileChunk { chunkSizes.append(f.body.count - (try FrameBodies.FileChunk.decode(f.body)).contentStart) }
            p.deliver(to, f)
            if let o = p.watch.outstandingFileTransfers.first { progress.append(o.progress) }
        }
        #expect(chunkSizes.allSatisfy { $0 <= 256 * 1024 } && chunkSizes.count == 4)
        #expect(progress.first == 0 && progress == progress.sorted())
        let done = Self.finished(p)
        #expect(done.count == 1 && done[0].1 == nil && done[0].0.progress == 1)
        let got = Self.received(p)
        #expect(got.count == 1 && got[0].metadata == ["workout": "w1"] && got[0].name == "run.bin" && got[0].sizeBytes == 1_000_000)
        #expect(got[0].path.hasPrefix("inbox/"))
        // Not moved by the app in its callback: deleted afterwards.
        #expect(p.phoneFiles.list("inbox").isEmpty)
        #expect(p.watch.outstandingFileTransfers.isEmpty)
    }

    @Test func fileMovedInTheCallbackIsKept() throws {
        var p = SessionPair.connected()
        p.phoneKeepsFilesIn = "workouts"
        try p.watchFiles.write("a.csv", offset: 0, bytes: Array("x,y\n".utf8))
        _ = try p.watch.transferFile(path: "a.csv", metadata: nil, now: p.now).get()
        p.collect()
        p.run()
        #expect(try p.phoneFiles.readAll("workouts/a.csv") == Array("x,y\n".utf8))
        #expect(p.phoneFiles.list("inbox").isEmpty)
    }

    /// A chunk changed on the way: the receiver's check (`FileChecksum.verify`, as the engine
    /// runs it) fails, the file is sent again and delivered once, never the damaged copy.
    @Test func checksumMismatchIsRetriedAndNeverDelivered() throws {
        var p = SessionPair.connected()
        p.phoneKeepsFilesIn = "kept"
        let data = Self.content(300_000)
        try p.watchFiles.write("f.bin", offset: 0, bytes: data)
        _ = try p.watch.transferFile(path: "f.bin", metadata: nil, now: p.now).get()
        p.collect()
        var corrupted = false
        p.run { _, f in
            if f.kind == .fileChunk && !corrupted { f.body[f.body.count - 1] ^= 0xFF; corrupted = true }
            return true
        }
        #expect(p.phone.stats.files.verifyFailures == 1)
        #expect(p.phoneLogs.contains { $0.contains("failed its SHA-256 check") })
        let got = Self.received(p)
        #expect(got.count == 1)
        #expect(try p.phoneFiles.readAll("kept/f.bin") == data, "the copy kept is the one sent")
        #expect(Self.finished(p).count == 1 && Self.finished(p)[0].1 == nil)
    }

    /// The phone delivers the file but its `fileAck delivered` is lost: when the watch sends
    /// the file's end again (retransmission), the phone says delivered again, on the same
    /// connection — the transfer does not stay outstanding until the next reconnect.
    @Test func aLostDeliveredAcknowledgementIsGivenAgainWhenTheEndIsResent() throws {
        var p = SessionPair.connected()
        try p.watchFiles.write("f.bin", offset: 0, bytes: Self.content(5_000))
        _ = try p.watch.transferFile(path: "f.bin", metadata: nil, now: p.now).get()
        p.collect()
        p.run { _, f in
            if f.kind == .fileAck, case .delivered? = try? FrameBodies.FileAck.decode(f.body) { return false }  // lost
            return true
        }
        #expect(Self.received(p).count == 1 && Self.finished(p).isEmpty)
        for _ in 0..<8 where Self.finished(p).isEmpty {
            p.advance(2_000)
            p.run()
        }
        #expect(Self.finished(p).count == 1 && Self.finished(p)[0].1 == nil)
        #expect(Self.received(p).count == 1, "delivered once")
        #expect(p.watch.outstandingFileTransfers.isEmpty)
    }

    /// The phone holds the whole file, committed, when it restarts; a byte of it changed
    /// meanwhile. The watch offers the file again, the phone answers that it holds all of it,
    /// the watch sends the end at once, the check fails, and the phone's `fileResume(0)` is
    /// lost. The watch, which had everything acknowledged, resends only the end: the phone,
    /// missing every byte now, must ask again, or the transfer stays outstanding forever.
    @Test func aLostResumeAfterAFailedCheckIsAskedAgainWhenTheEndIsResent() throws {
        var p = SessionPair.connected()
        p.phoneKeepsFilesIn = "kept"
        let data = Self.content(5_000)
        try p.watchFiles.write("f.bin", offset: 0, bytes: data)
        _ = try p.watch.transferFile(path: "f.bin", metadata: nil, now: p.now).get()
        p.collect()
        while let i = p.wire.firstIndex(where: { $0.frame.kind != .fileEnd }) {
            let (to, f) = p.wire.remove(at: i)
            p.deliver(to, f)
        }
        #expect(p.phone.persistent.incomingFile?.committedBytes == 5_000)
        p.wire = []
        try p.restart(.phone)
        let part = try #require(p.phoneFiles.list("inbox").first { $0.hasSuffix(".part") })
        let byte = try p.phoneFiles.read(part, offset: 10, count: 1)
        try p.phoneFiles.write(part, offset: 10, bytes: [byte[0] ^ 0x01])
        p.watch.onConnectionClosed(p.connection, now: p.now)
        p.collect()
        p.connection += 1
        p.connect()
        var lostResume = false
        while !p.wire.isEmpty {
            let (to, f) = p.wire.removeFirst()
            if f.kind == .fileResume, p.phone.stats.files.verifyFailures == 1, !lostResume { lostResume = true; continue }
            p.deliver(to, f)
        }
        #expect(lostResume && Self.received(p).isEmpty)
        for _ in 0..<8 where Self.finished(p).isEmpty {
            p.advance(2_000)
            p.run()
        }
        #expect(Self.finished(p).count == 1 && Self.finished(p)[0].1 == nil)
        #expect(try p.phoneFiles.readAll("kept/f.bin") == data)
    }

    @Test func persistentMismatchFailsTheTransferWithDeliveryFailed() throws {
        var p = SessionPair.connected()
        try p.watchFiles.write("f.bin", offset: 0, bytes: Self.content(1000))
        _ = try p.watch.transferFile(path: "f.bin", metadata: nil, now: p.now).get()
        p.collect()
        p.run { _, f in
            if f.kind == .fileChunk { f.body[f.body.count - 1] ^= 0xFF }
            return true
        }
        #expect(Self.received(p).isEmpty)
        #expect(Self.finished(p).map { $0.1?.code } == [.deliveryFailed])
        #expect(p.phoneFiles.list("inbox").isEmpty)
    }

    @Test func dropResumesFromTheLastAcknowledgedOffset() throws {
        var p = SessionPair { $0.fileSyncIntervalBytes = 256 * 1024; $0.fileWindowBytes = 1 << 20 }
        p.connect()
        p.run()
        let data = Self.content(2_000_000)
        try p.watchFiles.write("big.bin", offset: 0, bytes: data)
        _ = try p.watch.transferFile(path: "big.bin", metadata: nil, now: p.now).get()
        p.collect()
        p.run(limit: 8)  // part of the file crosses
        let committed = p.phone.persistent.incomingFile!.committedBytes
        #expect(committed > 0)
        p.disconnect()
        let before = p.phone.stats.files.bytesReceived
        p.connect()
        p.run()
        #expect(Self.received(p).count == 1)
        #expect(p.phone.stats.files.bytesReceived - before == 2_000_000 - committed)
    }

    @Test func receiverCrashResumesFromItsCommittedOffset() throws {
        var p = SessionPair { $0.fileSyncIntervalBytes = 256 * 1024 }
        p.connect()
        p.run()
        try p.watchFiles.write("big.bin", offset: 0, bytes: Self.content(1_500_000))
        _ = try p.watch.transferFile(path: "big.bin", metadata: nil, now: p.now).get()
        p.collect()
        p.run(limit: 5)
        p.wire = []
        try p.restart(.phone)
        let committed = p.phone.persistent.incomingFile?.committedBytes ?? 0
        #expect(committed > 0)
        p.watch.onConnectionClosed(p.connection, now: p.now)
        p.collect()
        p.connection += 1
        p.connect()
        p.run()
        #expect(Self.received(p).count == 1)
        #expect(p.phone.stats.files.bytesReceived == 1_500_000 - committed)
    }

    @Test func cancelMidTransferDeletesThePartialFileAndNothingIsDelivered() throws {
        var p = SessionPair { $0.fileSyncIntervalBytes = 256 * 1024; $0.fileWindowBytes = 512 * 1024 }
        p.connect()
        p.run()
        try p.watchFiles.write("big.bin", offset: 0, bytes: Self.content(3_000_000))
        let t = try p.watch.transferFile(path: "big.bin", metadata: nil, now: p.now).get()
        p.collect()
        p.run(limit: 4)
        #expect(p.phoneFiles.list("inbox").count == 1)
        let cancelled = p.watch.cancelFile(id: t.id)
        #expect(cancelled)
        p.collect()
        p.run()
        #expect(Self.received(p).isEmpty)
        #expect(p.phoneFiles.list("inbox").isEmpty)
        #expect(p.watch.outstandingFileTransfers.isEmpty)
        let again = p.watch.cancelFile(id: t.id)
        #expect(!again)
    }

    @Test func missingFileFinishesWithFileAccessDenied() throws {
        var p = SessionPair.connected()
        _ = try p.watch.transferFile(path: "nope.bin", metadata: nil, now: p.now).get()
        p.collect()
        #expect(Self.finished(p).map { $0.1?.code } == [.fileAccessDenied])
        #expect(failCode(p.watch.transferFile(path: "../etc/passwd", metadata: nil, now: p.now)) == .invalidParameter)
    }
}
