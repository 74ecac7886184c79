import Testing
@testable import PeerLinkCore

/// The sealed record layer alone: two ends of one connection with the keys of a real
/// handshake, and every way a relay can change what crosses.
@Suite("Sealed records")
struct SecureChannelTests {
    /// The two ends of a connection whose keys come from an NNpsk0 handshake with the
    /// given ephemeral keys.
    static func ends(rekeyAfterBytes: Int = 16 << 20, seed: UInt8 = 1) throws -> (watch: SecureChannel, phone: SecureChannel) {
        let psk = [UInt8](repeating: 0x42, count: 32)
        var i = NoiseHandshake(isInitiator: true, psk: psk, ephemeralPrivateKey: [UInt8](repeating: seed, count: 32), prologue: LinkSession.noisePrologue, cipher: LinkConfig.protocolCipher)
        var r = NoiseHandshake(isInitiator: false, psk: psk, ephemeralPrivateKey: [UInt8](repeating: seed &+ 100, count: 32), prologue: LinkSession.noisePrologue, cipher: LinkConfig.protocolCipher)
        _ = try r.readFirstMessage(try i.writeFirstMessage())
        let (m2, rk) = try r.writeSecondMessage()
        let (_, ik) = try i.readSecondMessage(m2)
        return (SecureChannel(keys: ik, rekeyAfterBytes: rekeyAfterBytes), SecureChannel(keys: rk, rekeyAfterBytes: rekeyAfterBytes))
    }

    /// The record bodies in `bytes`.
    static func records(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var d = RecordDecoder()
        d.feed(bytes)
        var out: [[UInt8]] = []
        while let r = try d.next() { #expect(r.type == .sealed); out.append(r.body) }
        return out
    }

    /// Opens every record; the frames they completed, or the first error.
    static func open(_ end: inout SecureChannel, _ records: [[UInt8]]) -> Result<[Frame], SealError> {
        var frames: [Frame] = []
        for r in records {
            do { if let f = try end.open(r[...]) { frames.append(f) } } catch { return .failure(error) }
        }
        return .success(frames)
    }

    static func frames(seed: UInt64, count: Int) -> [Frame] {
        var rng = SplitMix64(seed: seed)
        let kinds: [FrameKind] = [.ping, .userInfo, .message, .context, .fileChunk, .userInfoAck]
        return (0..<count).map { _ in
            let n = rng.next(in: 0...3) == 0 ? rng.next(in: 60_000...300_000) : rng.next(in: 0...200)
            return Frame(kinds[rng.next(in: 0...(kinds.count - 1))], (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
    }

    @Test func framesOfAnySizeCrossInOrderAndLargeOnesSpanRecords() throws {
        var (w, p) = try Self.ends()
        let sent = Self.frames(seed: 9, count: 40) + [Frame(.fileChunk, [UInt8](repeating: 7, count: Frame.maxBodyBytes))]
        var records: [[UInt8]] = []
        for f in sent {
            let bytes = w.seal(f)
            #expect(bytes.count == SecureChannel.sealedSize(bodyBytes: f.body.count))
            let rs = try Self.records(bytes)
            #expect(rs.count == SecureChannel.recordCount(bodyBytes: f.body.count))
            #expect(rs.allSatisfy { $0.count <= RecordHeader.maxBodyBytes })
            records += rs
        }
        #expect(try Self.open(&p, records).get() == sent)
        #expect(p.receiveCounter == UInt64(records.count))
    }

    /// Frames whose sealed records (seal) or opened bodies (open) are just under, at and just
    /// over `smallUninitializedLimit`, where sealing and opening switch from a buffer on the
    /// stack to the standard library's array: each crosses intact, and with a bit flipped
    /// it is refused and nothing of it comes out.
    @Test(arguments: [999, 1000, 1001, 1002, 1021, 1022, 1023, 1024, 1025])
    func framesAroundTheStackLimitCrossOrAreRefused(bodyBytes: Int) throws {
        var (w, p) = try Self.ends()
        var rng = SplitMix64(seed: UInt64(bodyBytes))
        let frame = Frame(.message, (0..<bodyBytes).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let bytes = w.seal(frame)
        #expect(bytes.count == SecureChannel.sealedSize(bodyBytes: bodyBytes))
        let rs = try Self.records(bytes)
        #expect(try Self.open(&p, rs).get() == [frame], "\(bodyBytes) bytes")
        var (w2, p2) = try Self.ends()
        var tampered = try Self.records(w2.seal(frame))
        tampered[0][tampered[0].count / 2] ^= 0x01
        guard case .failure(.authenticationFailed(counter: 0)) = Self.open(&p2, tampered) else {
            Issue.record("a tampered record of \(bodyBytes) bytes was opened"); return
        }
    }

    @Test func nothingOfTheFrameIsPlaintextOnTheWire() throws {
        var (w, _) = try Self.ends()
        let secret = Array("goal: Marathon under 4h, heart rate 142".utf8)
        let bytes = w.seal(Frame(.userInfo, secret))
        #expect(!bytes.indices.contains { i in bytes[i...].starts(with: secret.prefix(8)) })
    }

    @Test(arguments: Array(0..<24))
    func aFlippedBitAnywhereInASealedBodyIsDetected(position: Int) throws {
        var (w, p) = try Self.ends()
        var rs = try Self.records(w.seal(Frame(.userInfo, [UInt8](repeating: 1, count: 8))))
        let body = rs[0]
        let at = position * body.count / 24
        rs[0][at] ^= 0x10
        guard case .failure(.authenticationFailed(counter: 0)) = Self.open(&p, rs) else {
            Issue.record("a record with byte \(at) of \(body.count) flipped was opened"); return
        }
    }

    @Test func aReplayedRecordIsDetected() throws {
        var (w, p) = try Self.ends()
        let a = try Self.records(w.seal(Frame(.userInfo, [1, 2, 3])))
        let b = try Self.records(w.seal(Frame(.userInfo, [4, 5, 6])))
        #expect(throws: SealError.authenticationFailed(counter: 2)) { _ = try Self.open(&p, a + b + a).get() }
    }

    @Test func reorderedRecordsAreDetected() throws {
        var (w, p) = try Self.ends()
        let a = try Self.records(w.seal(Frame(.message, [1])))
        let b = try Self.records(w.seal(Frame(.message, [2])))
        #expect(throws: SealError.authenticationFailed(counter: 0)) { _ = try Self.open(&p, b + a).get() }
    }

    @Test func aMissingRecordMakesTheNextOneFail() throws {
        var (w, p) = try Self.ends()
        let rs = try Self.records(w.seal(Frame(.fileChunk, [UInt8](repeating: 3, count: 200_000))))
        #expect(rs.count == 4)
        // Dropping a middle fragment: the frame never completes, the next record fails.
        #expect(throws: SealError.authenticationFailed(counter: 1)) { _ = try Self.open(&p, [rs[0], rs[2], rs[3]]).get() }
    }

    @Test func aCutRecordDoesNotOpen() throws {
        var (w, p) = try Self.ends()
        let r = try Self.records(w.seal(Frame(.userInfo, [UInt8](repeating: 9, count: 100))))[0]
        #expect(throws: SealError.authenticationFailed(counter: 0)) { _ = try Self.open(&p, [Array(r.dropLast(5))]).get() }
        var (_, q) = try Self.ends()
        #expect(throws: SealError.authenticationFailed(counter: 0)) { _ = try Self.open(&q, [Array(r.prefix(10))]).get() }
    }

    @Test func anInjectedRecordIsDetected() throws {
        var (_, p) = try Self.ends()
        var rng = SplitMix64(seed: 77)
        let forged = (0..<60).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        #expect(throws: SealError.authenticationFailed(counter: 0)) { _ = try Self.open(&p, [forged]).get() }
    }

    @Test func recordsOfAnotherConnectionDoNotOpen() throws {
        var (w1, _) = try Self.ends(seed: 1)
        var (_, p2) = try Self.ends(seed: 2)
        let r = try Self.records(w1.seal(Frame(.userInfo, [1, 2, 3])))
        #expect(throws: SealError.authenticationFailed(counter: 0)) { _ = try Self.open(&p2, r).get() }
    }

    @Test func eachConnectionHasFreshKeys() throws {
        let (a, _) = try Self.ends(seed: 1)
        let (b, _) = try Self.ends(seed: 2)
        #expect(a.currentKeys.sending != b.currentKeys.sending)
        #expect(a.currentKeys.receiving != b.currentKeys.receiving)
        #expect(a.currentKeys.sending != a.currentKeys.receiving, "each direction has its own key")
    }

    @Test func keysAreReplacedAfterTheBoundAndBothEndsFollow() throws {
        var (w, p) = try Self.ends(rekeyAfterBytes: 4_096)
        let first = w.currentKeys.sending
        var records: [[UInt8]] = []
        for i in 0..<100 { records += try Self.records(w.seal(Frame(.userInfo, [UInt8](repeating: UInt8(i), count: 200)))) }
        #expect(w.sendRekeys == 100 * 217 / 4_096)
        #expect(w.currentKeys.sending != first)
        #expect(try Self.open(&p, records).get().count == 100)
        #expect(p.receiveRekeys == w.sendRekeys)
        #expect(p.currentKeys.receiving == w.currentKeys.sending)
        // Noise's REKEY: the first 32 bytes of ENCRYPT(k, 2^64 − 1, "", 32 zero bytes).
        #expect(AEADKey.rekeyed(LinkConfig.protocolCipher, key: first) == Array(AEADKey(LinkConfig.protocolCipher, key: first, encrypting: true).seal(nonce: .max, [UInt8](repeating: 0, count: 32)).prefix(32)))
    }

    @Test func aRecordSealedWithTheKeyBeforeTheRekeyIsRefused() throws {
        var (w, p) = try Self.ends(rekeyAfterBytes: 1_000)
        let oldKey = w.currentKeys.sending
        var records: [[UInt8]] = []
        for _ in 0..<10 { records += try Self.records(w.seal(Frame(.ping, [UInt8](repeating: 0, count: 150)))) }
        _ = try Self.open(&p, records).get()
        #expect(p.receiveRekeys >= 1)
        // The next record, at the right counter, but under the key from before the rekey.
        let n = p.receiveCounter
        let forged = AEADKey(LinkConfig.protocolCipher, key: oldKey, encrypting: true).seal(nonce: n, [1, FrameKind.ping.rawValue])
        #expect(throws: SealError.authenticationFailed(counter: n)) { _ = try Self.open(&p, [forged]).get() }
        // The same record under the current key opens: the counter and the format were right.
        var (_, q) = (w, p)
        let genuine = AEADKey(LinkConfig.protocolCipher, key: w.currentKeys.sending, encrypting: true).seal(nonce: n, [1, FrameKind.ping.rawValue])
        #expect(try Self.open(&q, [genuine]).get() == [Frame(.ping, [1])])
    }

    @Test func aFrameGrowingPastTheLimitIsRefused() throws {
        var (w, p) = try Self.ends()
        // Continuation fragments only, sealed properly: the receiver stops at the limit.
        var records: [[UInt8]] = []
        let fragment = [UInt8](repeating: 1, count: SecureChannel.maxFragmentBytes)
        let key = AEADKey(LinkConfig.protocolCipher, key: w.currentKeys.sending, encrypting: true)
        for n in 0..<20 { records.append(key.seal(nonce: UInt64(n), fragment + [0])) }
        guard case .failure(.frameTooLarge) = Self.open(&p, records) else { Issue.record("an endless frame was buffered"); return }
        _ = w
    }
}
