import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

/// A seeded fuzz run through the engine's production path: strangers sending mutated and
/// random records before any key, and a relay sending mutated, replayed, reordered and
/// random sealed records on authenticated connections. Nothing crashes, no stranger gets
/// in or sees more than a refusal or the handshake's answer, and nothing from a record that
/// does not authenticate reaches the session.
@Suite("Fuzzing the wire")
struct WireFuzzTests {
    static let seed: UInt64 = 0x5EC_2026
    static let psk = [UInt8](repeating: 0x77, count: 32)

    final class Pair {
        let phone: NodeEngine<RecorderApp>
        let watch: NodeEngine<RecorderApp>
        var now: EpochMs = 1_780_000_000_000
        var rng: SplitMix64
        /// Record types the phone wrote on each stranger connection.
        var phoneSent: [ConnectionID: [UInt8]] = [:]
        var closedByPhone: Set<ConnectionID> = []

        init(seed: UInt64) throws {
            rng = SplitMix64(seed: seed)
            let cal = LocalCalendar(identifier: "Asia/Tokyo")!
            phone = try NodeEngine(app: RecorderApp(), role: .phone, store: MemoryStore(), config: LinkConfig(role: .phone, pairingSecret: WireFuzzTests.psk),
                                   calendar: cal, language: .en, now: now, seed: 1, newIncarnation: 11)
            watch = try NodeEngine(app: RecorderApp(), role: .watch, store: MemoryStore(), config: LinkConfig(role: .watch, pairingSecret: WireFuzzTests.psk),
                                   calendar: cal, language: .en, now: now, seed: 2, newIncarnation: 22)
        }

        func key() -> [UInt8] { (0..<4).flatMap { _ -> [UInt8] in let v = rng.next(); return (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } } }

        /// Takes the phone's outputs, noting what it wrote to strangers and what it closed.
        func drainPhone(toWatch link: ConnectionID?) -> [[UInt8]] {
            var toWatch: [[UInt8]] = []
            for o in phone.drainOutput() {
                switch o {
                case .send(let id, let bytes, _):
                    if id == link { toWatch.append(bytes) } else { phoneSent[id, default: []] += bytes }
                case .close(let id, _): closedByPhone.insert(id)
                case .fatal(let m): Issue.record("phone fatal: \(m)")
                case .log: break
                }
            }
            return toWatch
        }

        /// Opens connection `id` between the two engines and exchanges until both are quiet.
        func connect(_ id: ConnectionID) {
            phone.connectionOpened(id, isInitiator: false, ephemeralKey: key(), now: now)
            watch.connectionOpened(id, isInitiator: true, ephemeralKey: key(), now: now)
            exchange(id)
        }

        /// Carries what each engine sends on `id` to the other until both are quiet.
        func exchange(_ id: ConnectionID) {
            for _ in 0..<100 {
                let fromPhone = drainPhone(toWatch: id)
                let fromWatch = watch.drainOutput().compactMap { if case .send(id, let b, _) = $0 { b } else { nil } }
                if fromPhone.isEmpty && fromWatch.isEmpty { return }
                for b in fromPhone { watch.received(id, b[...], now: now) }
                for b in fromWatch { phone.received(id, b[...], now: now) }
            }
        }

        func close(_ id: ConnectionID) {
            phone.connectionClosed(id, now: now)
            watch.connectionClosed(id, now: now)
            _ = drainPhone(toWatch: nil)
            _ = watch.drainOutput()
        }
    }

    @Test func aHundredThousandFramesNeverCrashAndNothingForgedGetsThrough() throws {
        let p = try Pair(seed: Self.seed)
        var rng = SplitMix64(seed: Self.seed)
        let noise = (0..<(1 << 16)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        func junk(_ n: Int) -> ArraySlice<UInt8> { let at = rng.next(in: 0...(noise.count - n - 1)); return noise[at..<at + n] }
        var frames = 0
        var id: ConnectionID = 1
        let recordsPerCase = [1, 2, 1, 3, 2]
        // Failures are counted and checked once (an expectation per frame would cost more
        // than the frame); each counter names the first offender.
        var strangersIn: [ConnectionID] = [], tookMore: [ConnectionID] = [], notClosed: [ConnectionID] = []

        // MARK: Unsealed: strangers before any key.
        let wrongKey = [UInt8](repeating: 0x13, count: 32)
        for round in 0..<15_000 {
            id += 1
            p.phone.connectionOpened(id, isInitiator: false, ephemeralKey: p.key(), now: p.now)
            var bytes: [UInt8]
            switch round % 5 {
            case 0: bytes = Array(junk(rng.next(in: 1...60)))
            case 1:  // a hello under another key, perhaps mutated
                bytes = StrangerFrames.attempt(ephemeralKey: p.key(), wrongSecret: rng.next(in: 0...1) == 0 ? wrongKey : Self.psk)
                for _ in 0..<rng.next(in: 0...2) { bytes[rng.next(in: 0...(bytes.count - 1))] ^= UInt8(1 << rng.next(in: 0...7)) }
            case 2:  // a record header of any type and length, and a body of noise
                bytes = [0x50, 0x4C, UInt8(rng.next(in: 1...3)), UInt8(rng.next(in: 0...255)), UInt8(rng.next(in: 0...255)), UInt8(rng.next(in: 0...255))] + junk(rng.next(in: 0...80))
            case 3:  // well-framed records of the handshake's types, of noise
                let types: [RecordType] = [.hello, .helloReply, .reject, .sealed]
                bytes = (0..<3).flatMap { _ in RecordEncoder.encode(types[rng.next(in: 0...3)], Array(junk(rng.next(in: 0...60)))) }
            default:  // a genuine first message, then a made-up sealed auth
                var noise = NoiseHandshake(isInitiator: true, psk: Self.psk, ephemeralPrivateKey: p.key(), prologue: LinkSession.noisePrologue, cipher: LinkConfig.protocolCipher)
                bytes = RecordEncoder.encode(.hello, try noise.writeFirstMessage()) + RecordEncoder.encode(.sealed, Array(junk(rng.next(in: 17...74))))
            }
            frames += recordsPerCase[round % 5]
            // Fed in one or two pieces.
            let cut = rng.next(in: 0...bytes.count)
            p.phone.received(id, bytes[..<cut], now: p.now)
            p.phone.received(id, bytes[cut...], now: p.now)
            _ = p.drainPhone(toWatch: nil)
            if p.phone.readContext({ $0.session.activeConnectionID }) != nil { strangersIn.append(id) }
            if round % 7 == 0 { p.now += 1 }
            p.phone.connectionClosed(id, now: p.now)
            _ = p.drainPhone(toWatch: nil)
        }
        for (sid, bytes) in p.phoneSent {
            var d = RecordDecoder()
            d.feed(bytes)
            while let r = try d.next() {
                #expect(r.type == .reject || r.type == .helloReply, "seed \(Self.seed): the phone sent a stranger (\(sid)) a \(r.type) record")
            }
        }

        // MARK: Sealed: a relay on authenticated connections.
        var forgedRefused = 0
        while frames < 100_000 {
            id += 1
            p.connect(id)
            guard p.phone.ctx.session.activeConnectionID == id, var forger = p.watch.wires[id]?.wire.channel else {
                Issue.record("seed \(Self.seed): connection \(id) did not come up"); break
            }
            // Genuine frames the phone takes without closing, then one bad record.
            var records: [[UInt8]] = []
            for _ in 0..<rng.next(in: 1...80) {
                let kinds: [Frame] = [Frame(.ping, [UInt8(rng.next(in: 0...15))]), Frame(.appState, [UInt8(rng.next(in: 0...15))]),
                                      Frame(.userInfoAck, FrameBodies.encodeVarints(0, 0)), Frame(.pong, [3])]
                records.append(forger.seal(kinds[rng.next(in: 0...3)]))
            }
            let genuine = records.count
            let last = forger.seal(Frame(.ping, [1]))
            let badKind = rng.next(in: 0...5)
            switch badKind {
            case 0: records.append(RecordTamper.flippingOneByte(last, random: rng.next()))  // flipped
            case 1: records.append(records[rng.next(in: 0...(records.count - 1))])  // replayed
            case 2: records.append(RecordEncoder.encode(.sealed, Array(junk(rng.next(in: 17...200)))))  // injected
            case 3: records.insert(last, at: records.count - 1); records.append(forger.seal(Frame(.ping, [2])))  // reordered
            case 4: records.append(Array(forger.seal(Frame(.ping, [0])).dropLast(rng.next(in: 1...10))) + forger.seal(Frame(.ping, [0])))  // cut
            default:  // authentic but of random kind and body: the session's parsers take it or close
                let k = FrameKind.allCases[rng.next(in: 0...(FrameKind.allCases.count - 1))]
                records.append(forger.seal(Frame(k, Array(junk(rng.next(in: 0...300))))))
            }
            frames += records.count
            let before = p.phone.readContext { $0.session.stats.framesReceived }
            p.phone.received(id, Array(records.joined())[...], now: p.now)
            _ = p.drainPhone(toWatch: id)
            let taken = p.phone.readContext { $0.session.stats.framesReceived } - before
            if badKind < 5 {
                // Only the genuine frames before the bad one were taken; the connection was closed.
                if taken > genuine { tookMore.append(id) }
                if p.closedByPhone.contains(id) { forgedRefused += 1 } else { notClosed.append(id) }
            }
            p.now += 10
            p.close(id)
        }
        #expect(frames >= 100_000)
        #expect(strangersIn.isEmpty, "seed \(Self.seed): strangers got in on connections \(strangersIn.prefix(5))")
        #expect(tookMore.isEmpty, "seed \(Self.seed): frames after a bad record reached the session on connections \(tookMore.prefix(5))")
        #expect(notClosed.isEmpty, "seed \(Self.seed): a bad record did not close connections \(notClosed.prefix(5))")
        #expect(forgedRefused > 1_000, "seed \(Self.seed): \(forgedRefused) bad records refused")
        // The phone still serves its watch.
        id += 1
        p.connect(id)
        #expect(p.phone.ctx.session.activeConnectionID == id, "seed \(Self.seed)")
        _ = p.watch.command(NodeCommand(line: "send 3")!, now: p.now)
        p.exchange(id)
        #expect(RecorderApp.received(p.phone.ctx).count >= 3, "seed \(Self.seed)")
    }
}
