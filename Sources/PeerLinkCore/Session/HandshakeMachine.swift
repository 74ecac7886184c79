
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


/// The handshake's steps, for one connection at a time: what to send, and where the
/// connection stands after each frame. It holds nothing: each connection's `Handshake` lives in
/// the session's `ConnectionTable`, and the session carries out the outcome (refusing, bringing
/// the link up).
struct HandshakeMachine: Sendable {
    /// The session's configuration and its handshake prefix, made together.
    private let shared: SharedLinkConfig
    var config: LinkConfig { shared.value }

    init(shared: SharedLinkConfig) { self.shared = shared }

    /// What this side's handshakes start from, `NoisePSKPrefix` of the pairing secret, or the
    /// reason there is none (no secret, or one of the wrong length). The session makes it
    /// once, with its configuration (`SharedLinkConfig`).
    static func handshakeStart(for config: LinkConfig) -> Result<NoisePSKPrefix, LinkRefusal> {
        guard let s = config.pairingSecret else { return .failure(LinkRefusal("this \(config.role) is not paired")) }
        guard s.count == LinkConfig.pairingSecretBytes else {
            return .failure(LinkRefusal("this \(config.role)'s pairing secret is \(s.count) bytes, not \(LinkConfig.pairingSecretBytes): pair again"))
        }
        return .success(NoisePSKPrefix(psk: s, prologue: LinkSession.noisePrologue, cipher: config.cipher))
    }

    /// Where a handshake stands after a frame.
    enum Step: Equatable {
        /// Going on, in this state.
        case next(Handshake)
        /// The connection is refused for `reason` (`tellPeer`: with a `reject` first).
        case refuse(String, tellPeer: Bool)
        /// Authenticated: the peer's session state; the link comes up.
        case up(SessionInfo)
        /// The peer refused us (its `reject`).
        case refusedByPeer(String)
    }

    /// Connection `id` opened: its handshake, and a reason to refuse it at once (the
    /// connector without a usable secret). The connector sends its `hello`.
    func open(_ id: ConnectionID, isInitiator: Bool, ephemeralKey: [UInt8], now: EpochMs, out: inout HandshakeOutput) -> (Handshake, refusal: String?) {
        guard isInitiator else {
            return (Handshake(isInitiator: false, phase: .awaitingHello, noise: nil, ephemeralKey: ephemeralKey, openedMs: now), nil)
        }
        var h = Handshake(isInitiator: true, phase: .awaitingHelloReply, noise: nil, ephemeralKey: [], openedMs: now)
        switch shared.handshakeStart {
        case .failure(let r): return (h, r.reason)
        case .success(let prefix):
            var noise = NoiseHandshake(isInitiator: true, prefix: prefix, ephemeralPrivateKey: ephemeralKey)
            let message = try! noise.writeFirstMessage()  // the first message of a fresh state cannot fail
            h.noise = noise
            out.send(id, Frame(.hello, message))
            return (h, nil)
        }
    }

    /// A frame came on connection `id` in the handshake `h`; `me` is this side's session state.
    func onFrame(_ h: Handshake, _ frame: Frame, on id: ConnectionID, me: SessionInfo, out: inout HandshakeOutput) -> Step {
        var h = h
        switch (h.phase, frame.kind) {
        case (.awaitingHello, .hello):
            let prefix: NoisePSKPrefix
            switch shared.handshakeStart {
            case .failure(let r): return .refuse(r.reason, tellPeer: true)
            case .success(let p): prefix = p
            }
            var noise = NoiseHandshake(isInitiator: false, prefix: prefix, ephemeralPrivateKey: h.ephemeralKey)
            do {
                _ = try noise.readFirstMessage(frame.body)
            } catch .authenticationFailed {
                return .refuse("pairing proof failed: the peer does not hold our pairing secret", tellPeer: true)
            } catch {
                return .refuse("malformed hello: \(error)", tellPeer: true)
            }
            let reply: (message: [UInt8], keys: TransportKeys)
            do { reply = try noise.writeSecondMessage() } catch { return .refuse("\(error)", tellPeer: true) }
            h.phase = .awaitingAuth
            h.noise = nil
            h.ephemeralKey = []
            out.send(id, Frame(.helloReply, reply.message))
            out.startSealing(id, reply.keys)
            return .next(h)

        case (.awaitingHelloReply, .helloReply):
            guard var noise = h.noise else { return .refuse("no handshake state", tellPeer: false) }
            let keys: TransportKeys
            do {
                keys = try noise.readSecondMessage(frame.body).keys
            } catch .authenticationFailed {
                // The phone read our first message, so it holds the secret: this one was changed on the way.
                return .refuse("pairing proof failed: the phone's answer did not authenticate", tellPeer: false)
            } catch {
                return .refuse("malformed helloReply: \(error)", tellPeer: false)
            }
            h.phase = .awaitingReady
            h.noise = nil
            out.startSealing(id, keys)
            out.send(id, Frame(.auth, me.encoded()))
            return .next(h)

        case (.awaitingAuth, .auth):
            var r = ByteReader(frame.body)
            guard let info = try? SessionInfo.decode(&r), r.isAtEnd else { return .refuse("malformed auth", tellPeer: true) }
            out.send(id, Frame(.ready, me.encoded()))
            return .up(info)

        case (.awaitingReady, .ready):
            var r = ByteReader(frame.body)
            guard let info = try? SessionInfo.decode(&r), r.isAtEnd else { return .refuse("malformed ready", tellPeer: true) }
            return .up(info)

        case (_, .reject):
            var r = ByteReader(frame.body)
            return .refusedByPeer((try? r.readString()) ?? "no reason")

        default:
            return .refuse("frame \(frame.kind) out of protocol order during the handshake", tellPeer: true)
        }
    }
}

/// Why a connection cannot go on (a reason for the log and the peer).
struct LinkRefusal: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
