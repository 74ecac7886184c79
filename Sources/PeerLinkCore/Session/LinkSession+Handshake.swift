
/// The handshake of one connection: `Noise_NNpsk0_25519_AESGCM_SHA256` with the pairing
/// secret as pre-shared key, then each side's session state, sealed.
///
/// ```
/// connector (watch)                              listener (phone)
///   hello       = Noise msg 1: e, [ ]            ──►   (psk, e)
///                                                ◄──   helloReply = Noise msg 2: e, ee, [ ]
///   (keys: Split)                                      (keys: Split)
///   sealed auth(SessionInfo)                     ──►
///                                                ◄──   sealed ready(SessionInfo); the link is up
/// ```
/// Only a peer holding the pairing secret can produce a first message the listener accepts,
/// or read the second; the listener takes the connection as its peer's only once `auth`
/// opened under the new keys (so a replayed first message gets nowhere). No channel frame
/// crosses before `ready`; a refused peer sees at most a `reject`.
struct Handshake: Sendable, Equatable {
    enum Phase: Sendable, Equatable { case awaitingHello, awaitingHelloReply, awaitingAuth, awaitingReady }
    var isInitiator: Bool
    var phase: Phase
    /// This side's Noise state until `Split()` (then nil: the keys went to the wire).
    var noise: NoiseHandshake?
    /// The ephemeral private key, until the responder's `NoiseHandshake` is made.
    var ephemeralKey: [UInt8]
    var openedMs: EpochMs
    /// Bytes the engine holds for this connection (received, not yet a whole record).
    var bufferedBytes = 0
}

extension LinkSession {
    /// The Noise prologue: both sides hash it first, so a peer of another protocol fails.
    public static let noisePrologue = Array("PeerLink protocol 2".utf8)
    /// Both handshake messages carry an empty payload: 32-byte key and 16-byte tag.
    public static let helloBytes = NoiseHandshake.messageBytes(payloadBytes: 0)
    /// A refusal's reason is cut to this many bytes of UTF-8.
    static let maxRejectReasonBytes = 200
    /// The largest `reject` body (a varint length and the reason).
    static let maxRejectBytes = 2 + maxRejectReasonBytes

    /// The sealed record body of a frame body of `n` bytes in one record.
    static func sealedRecordBytes(_ n: Int) -> Int { n + 1 + AEADCipher.tagBytes }
    /// The size of the sealed record that carries the largest session info (the `auth`).
    public static var sealedSessionInfoBytes: Int { sealedRecordBytes(SessionInfo.maxBytes) }

    // MARK: - What a connection accepts

    /// The record types connection `id` accepts now, each at the largest size it can have
    /// in this phase: before authentication only the handshake's own records, of their own
    /// size; afterwards sealed records only.
    public func recordLimits(for id: ConnectionID) -> RecordLimits {
        if let h = handshakes[id] {
            switch h.phase {
            case .awaitingHello: return RecordLimits(hello: Self.helloBytes)
            case .awaitingHelloReply: return RecordLimits(helloReply: Self.helloBytes, reject: Self.maxRejectBytes)
            case .awaitingAuth: return RecordLimits(sealed: Self.sealedRecordBytes(SessionInfo.maxBytes))
            case .awaitingReady: return RecordLimits(sealed: Self.sealedRecordBytes(max(SessionInfo.maxBytes, Self.maxRejectBytes)))
            }
        }
        if active?.id == id { return RecordLimits(sealed: RecordHeader.maxBodyBytes) }
        return RecordLimits()
    }

    /// True while connection `id` is in the handshake or is the authenticated one (bytes of
    /// any other — refused, replaced — are ignored).
    public func isConnectionOpen(_ id: ConnectionID) -> Bool { handshakes[id] != nil || active?.id == id }

    /// The pairing secret as a Noise pre-shared key, or the reason there is none.
    func preSharedKey() -> Result<[UInt8], LinkRefusal> {
        guard let s = config.pairingSecret else { return .failure(LinkRefusal("this \(config.role) is not paired")) }
        guard s.count == LinkConfig.pairingSecretBytes else {
            return .failure(LinkRefusal("this \(config.role)'s pairing secret is \(s.count) bytes, not \(LinkConfig.pairingSecretBytes): pair again"))
        }
        return .success(s)
    }

    // MARK: - Connection events

    /// A transport connection opened. `ephemeralKey` MUST be 32 fresh random bytes from the
    /// shell: this side's Noise ephemeral private key for the connection.
    public mutating func onConnectionOpened(_ id: ConnectionID, isInitiator: Bool, ephemeralKey: [UInt8], now: EpochMs) {
        precondition(ephemeralKey.count == X25519.keyBytes, "an ephemeral key is \(X25519.keyBytes) bytes")
        if isInitiator {
            reconnect.attemptStarted()
            var h = Handshake(isInitiator: true, phase: .awaitingHelloReply, noise: nil, ephemeralKey: [], openedMs: now)
            switch preSharedKey() {
            case .failure(let r):
                handshakes[id] = h
                return refuse(id, r.reason, tellPeer: false)
            case .success(let psk):
                var noise = NoiseHandshake(isInitiator: true, psk: psk, ephemeralPrivateKey: ephemeralKey, prologue: Self.noisePrologue, cipher: config.cipher)
                let message = try! noise.writeFirstMessage()  // the first message of a fresh state cannot fail
                h.noise = noise
                handshakes[id] = h
                send(id, Frame(.hello, message))
            }
        } else {
            handshakes[id] = Handshake(isInitiator: false, phase: .awaitingHello, noise: nil, ephemeralKey: ephemeralKey, openedMs: now)
            enforceHandshakeCaps(now: now)
        }
    }

    // MARK: - Handshake frames

    mutating func onHandshakeFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) {
        guard var h = handshakes[id] else { return }
        switch (h.phase, frame.kind) {
        case (.awaitingHello, .hello):
            let psk: [UInt8]
            switch preSharedKey() {
            case .failure(let r): return refuse(id, r.reason)
            case .success(let k): psk = k
            }
            var noise = NoiseHandshake(isInitiator: false, psk: psk, ephemeralPrivateKey: h.ephemeralKey, prologue: Self.noisePrologue, cipher: config.cipher)
            do {
                _ = try noise.readFirstMessage(frame.body)
            } catch .authenticationFailed {
                return refuse(id, "pairing proof failed: the peer does not hold our pairing secret")
            } catch {
                return refuse(id, "malformed hello: \(error)")
            }
            let reply: (message: [UInt8], keys: TransportKeys)
            do { reply = try noise.writeSecondMessage() } catch { return refuse(id, "\(error)") }
            h.phase = .awaitingAuth
            h.noise = nil
            h.ephemeralKey = []
            handshakes[id] = h
            send(id, Frame(.helloReply, reply.message))
            out.append(.startSealing(id, reply.keys))

        case (.awaitingHelloReply, .helloReply):
            guard var noise = h.noise else { return refuse(id, "no handshake state", tellPeer: false) }
            let keys: TransportKeys
            do {
                keys = try noise.readSecondMessage(frame.body).keys
            } catch .authenticationFailed {
                // The phone read our first message, so it holds the secret: this one was changed on the way.
                return refuse(id, "pairing proof failed: the phone's answer did not authenticate", tellPeer: false)
            } catch {
                return refuse(id, "malformed helloReply: \(error)", tellPeer: false)
            }
            h.phase = .awaitingReady
            h.noise = nil
            handshakes[id] = h
            out.append(.startSealing(id, keys))
            send(id, Frame(.auth, mySessionInfo().encoded()))

        case (.awaitingAuth, .auth):
            var r = ByteReader(frame.body)
            guard let info = try? SessionInfo.decode(&r), r.isAtEnd else { return refuse(id, "malformed auth") }
            send(id, Frame(.ready, mySessionInfo().encoded()))
            becomeUp(id, peer: info, now: now)

        case (.awaitingReady, .ready):
            var r = ByteReader(frame.body)
            guard let info = try? SessionInfo.decode(&r), r.isAtEnd else { return refuse(id, "malformed ready") }
            becomeUp(id, peer: info, now: now)

        case (_, .reject):
            var r = ByteReader(frame.body)
            let reason = (try? r.readString()) ?? "no reason"
            handshakes[id] = nil
            stats.refusedByPeer += 1
            noteRefusal(.warning, "peer refused connection \(id): \(reason)", now: now)
            out.close(id, reason: "refused by peer: \(reason)")

        default:
            refuse(id, "frame \(frame.kind) out of protocol order during the handshake")
        }
    }

    func mySessionInfo() -> SessionInfo {
        SessionInfo(incarnation: persistent.incarnation, knownPeerIncarnation: persistent.peerIncarnation,
                    lastDelivered: persistent.lastDeliveredFromPeer, lastComplicationDelivered: persistent.lastComplicationDeliveredFromPeer,
                    contextVersionReceived: persistent.receivedContextVersion, lastFileDelivered: persistent.lastFileDelivered,
                    appState: localAppState)
    }
}

/// Why a connection cannot go on (a reason for the log and the peer).
struct LinkRefusal: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
