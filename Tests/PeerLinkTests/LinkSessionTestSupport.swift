@testable import PeerLinkCore

/// Two sessions wired back to back without sockets: frames are passed by hand, persists are
/// applied to in-memory stores, file operations to in-memory file storages (as the engine
/// does, with the engine's own file checksum, `FileChecksum`), deliveries are recorded.
struct SessionPair {
    var phone: LinkSession
    var watch: LinkSession
    let phoneStore = MemoryStore()
    let watchStore = MemoryStore()
    let phoneFiles = MemoryFileStorage()
    let watchFiles = MemoryFileStorage()
    var phoneEvents: [LinkEvent] = []
    var watchEvents: [LinkEvent] = []
    var phoneLogs: [String] = []
    var watchLogs: [String] = []
    var now: EpochMs = 1_000_000
    /// Frames in flight, in order, with their destination.
    var wire: [(to: DeviceRole, frame: Frame)] = []
    var closed: [(DeviceRole, String)] = []
    var connection: ConnectionID = 1
    /// Called for each received message (to reply from "the app").
    var phoneReplies: (IncomingMessage) -> MessagePayload? = { _ in nil }
    /// Where the phone "app" moves received files in its callback (nil: it leaves them).
    var phoneKeepsFilesIn: String?

    init(phoneSecret: [UInt8]? = Array(repeating: 7, count: 32), watchSecret: [UInt8]? = Array(repeating: 7, count: 32),
         configure: (inout LinkConfig) -> Void = { _ in }) {
        var pc = LinkConfig(role: .phone, pairingSecret: phoneSecret)
        var wc = LinkConfig(role: .watch, pairingSecret: watchSecret)
        configure(&pc)
        configure(&wc)
        phone = LinkSession(config: pc, persistent: LinkPersistent(incarnation: 11), seed: 1)
        watch = LinkSession(config: wc, persistent: LinkPersistent(incarnation: 22), seed: 2)
        phone.activate()
        watch.activate()
        collect()
    }

    /// A pair already connected and handshaken (nothing left on the wire).
    static func connected(configure: (inout LinkConfig) -> Void = { _ in }) -> SessionPair {
        var p = SessionPair(configure: configure)
        p.connect()
        p.run()
        return p
    }

    mutating func session(_ role: DeviceRole) -> LinkSession { role == .phone ? phone : watch }

    mutating func collect() {
        var again = true
        while again {
            again = false
            let pa = phone.drainActions()
            let wa = watch.drainActions()
            for a in pa { apply(a, from: .phone) }
            for a in wa { apply(a, from: .watch) }
            again = !pa.isEmpty || !wa.isEmpty
        }
    }

    mutating func apply(_ a: LinkAction, from role: DeviceRole) {
        let files = role == .phone ? phoneFiles : watchFiles
        switch a {
        case .send(_, let f): wire.append((role.peer, f))
        case .startSealing: break  // frames pass between the two sessions by hand, unsealed (the engine's wire seals)
        case .sendFileChunk(_, let n, let path, let offset, let count):
            var body = FrameBodies.FileChunk.header(number: n, offset: offset)
            body += (try? files.read(path, offset: offset, count: count)) ?? []
            wire.append((role.peer, Frame(.fileChunk, body)))
        case .sendFileEnd(_, let n, let path, let size):
            wire.append((role.peer, Frame(.fileEnd, FrameBodies.FileEnd.encode(number: n, sha256: (try? FileChecksum.senderHash(path, in: files, sizeBytes: size, running: nil)) ?? []))))
        case .close(_, let r): closed.append((role, r))
        case .persist(let b): try! (role == .phone ? phoneStore : watchStore).commit(b)
        case .deliver(let e):
            if role == .phone { phoneEvents.append(e) } else { watchEvents.append(e) }
            if role == .phone, case .didReceiveMessage(let m) = e, m.replyExpected, let r = phoneReplies(m) {
                _ = phone.replyToMessage(m.id, with: r)
            }
            if role == .phone, case .didReceiveFile(let f) = e, let dir = phoneKeepsFilesIn {
                // The app's move runs inside its callback, before the inbox is cleaned (as the engine does).
                _ = phone.moveReceivedFile(f, to: dir + "/" + f.name)
                for a in phone.drainActions() { apply(a, from: .phone) }
            }
        case .log(_, let m): if role == .phone { phoneLogs.append(m) } else { watchLogs.append(m) }
        case .file(let op):
            switch op {
            case .write(let p, let o, let b): try! files.write(p, offset: o, bytes: b)
            case .truncate(let p, let s): try! files.truncate(p, sizeBytes: s)
            case .sync(let p): try! files.sync(p)
            case .move(let f, let t): try? files.move(from: f, to: t)
            case .remove(let p): files.remove(p)
            case .measure(let n, let p):
                if let size = files.size(p) {
                    if role == .phone { phone.onFileMeasured(number: n, sizeBytes: size, now: now) } else { watch.onFileMeasured(number: n, sizeBytes: size, now: now) }
                } else if role == .phone { phone.onFileReadFailed(number: n, reason: "missing", now: now) } else { watch.onFileReadFailed(number: n, reason: "missing", now: now) }
            case .verify(let n, let p, let sha):
                let ok = (try? FileChecksum.verify(p, in: files, expected: sha, running: nil).matches) ?? false
                if role == .phone { phone.onFileVerified(number: n, matches: ok, now: now) } else { watch.onFileVerified(number: n, matches: ok, now: now) }
            }
        }
    }

    /// The watch connects to the phone.
    mutating func connect() {
        phone.onConnectionOpened(connection, isInitiator: false, ephemeralKey: Array(repeating: 1, count: 32), now: now)
        watch.onConnectionOpened(connection, isInitiator: true, ephemeralKey: Array(repeating: 2, count: 32), now: now)
        collect()
    }

    /// Both sides see the connection close; frames in flight are lost.
    mutating func disconnect() {
        wire = []
        phone.onConnectionClosed(connection, now: now)
        watch.onConnectionClosed(connection, now: now)
        collect()
        connection += 1
    }

    /// Delivers one frame.
    mutating func deliver(_ to: DeviceRole, _ frame: Frame) {
        if to == .phone { phone.onFrame(connection, frame, now: now); phone.endOfInput(now: now) } else { watch.onFrame(connection, frame, now: now); watch.endOfInput(now: now) }
        collect()
    }

    /// Delivers every frame in flight until none is left.
    mutating func run(limit: Int = 1_000_000) {
        var count = 0
        while !wire.isEmpty && count < limit {
            let (to, frame) = wire.removeFirst()
            deliver(to, frame)
            count += 1
        }
    }

    /// Delivers every frame in flight until none is left, each through `filter` first: it may
    /// change the frame (damage on the way), and false drops it (lost on the way).
    mutating func run(filter: (DeviceRole, inout Frame) throws -> Bool) rethrows {
        while !wire.isEmpty {
            var (to, f) = wire.removeFirst()
            if try filter(to, &f) { deliver(to, f) }
        }
    }

    /// Moves the clock and ticks both sides.
    mutating func advance(_ ms: EpochMs) {
        now += ms
        phone.onTick(now: now)
        watch.onTick(now: now)
        collect()
    }

    /// Events of a kind, by a predicate.
    func events(_ role: DeviceRole, _ match: (LinkEvent) -> Bool) -> [LinkEvent] {
        (role == .phone ? phoneEvents : watchEvents).filter(match)
    }

    /// The user info payloads delivered to `role`, in order.
    func userInfos(_ role: DeviceRole) -> [PlistValue] {
        (role == .phone ? phoneEvents : watchEvents).compactMap { if case .didReceiveUserInfo(let v, _) = $0 { v } else { nil } }
    }

    /// Rebuilds a side from its store, as after a crash (what was committed survives).
    mutating func restart(_ role: DeviceRole) throws {
        let store = role == .phone ? phoneStore : watchStore
        let config = role == .phone ? phone.config : watch.config
        var s = LinkSession(config: config, persistent: try LinkPersistence.load(from: store, newIncarnation: 999), seed: 5)
        s.activate()
        if role == .phone { phone = s } else { watch = s }
        collect()
    }
}

/// The error code of a failed result; nil on success.
func failCode<T>(_ r: Result<T, WCError>) -> WCErrorCode? {
    if case .failure(let e) = r { return e.code }
    return nil
}

/// The codes of `messageDidFail` events, in order.
func failCodes(_ events: [LinkEvent]) -> [WCErrorCode] {
    events.compactMap { if case .messageDidFail(_, let e) = $0 { e.code } else { nil } }
}
