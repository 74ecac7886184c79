@testable import PeerLink
import Shared

/// Two sessions wired back to back without sockets: frames are passed by hand, persists are
/// applied to in-memory stores, deliveries are recorded.
struct SessionPair {
    var phone: LinkSession
    var watch: LinkSession
    let phoneStore = MemoryStore()
    let watchStore = MemoryStore()
    var phoneEvents: [LinkEvent] = []
    var watchEvents: [LinkEvent] = []
    var phoneLogs: [String] = []
    var watchLogs: [String] = []
    var now: EpochMs = 1_000_000
    /// Frames in flight, in order, with their destination.
    var wire: [(to: DeviceRole, frame: Frame)] = []
    var closed: [(DeviceRole, String)] = []
    let connection: ConnectionID = 1

    init(phoneSecret: [UInt8]? = Array(repeating: 7, count: 16), watchSecret: [UInt8]? = Array(repeating: 7, count: 16)) {
        phone = LinkSession(config: LinkConfig(role: .phone, pairingSecret: phoneSecret), persistent: LinkPersistent(incarnation: 11), seed: 1)
        watch = LinkSession(config: LinkConfig(role: .watch, pairingSecret: watchSecret), persistent: LinkPersistent(incarnation: 22), seed: 2)
        phone.activate()
        watch.activate()
        collect()
    }

    mutating func collect() {
        for a in phone.drainActions() { apply(a, from: .phone) }
        for a in watch.drainActions() { apply(a, from: .watch) }
    }

    mutating func apply(_ a: LinkAction, from role: DeviceRole) {
        switch a {
        case .send(_, let f): wire.append((role.peer, f))
        case .close(_, let r): closed.append((role, r))
        case .persist(let b): try! (role == .phone ? phoneStore : watchStore).commit(b)
        case .deliver(let e): if role == .phone { phoneEvents.append(e) } else { watchEvents.append(e) }
        case .log(_, let m): if role == .phone { phoneLogs.append(m) } else { watchLogs.append(m) }
        }
    }

    /// The watch connects to the phone.
    mutating func connect() {
        phone.onConnectionOpened(connection, isInitiator: false, nonce: Array(repeating: 1, count: 16), now: now)
        watch.onConnectionOpened(connection, isInitiator: true, nonce: Array(repeating: 2, count: 16), now: now)
        collect()
    }

    /// Delivers every frame in flight until none is left.
    mutating func run() {
        var guardCount = 0
        while !wire.isEmpty && guardCount < 100_000 {
            let (to, frame) = wire.removeFirst()
            if to == .phone { phone.onFrame(connection, frame, now: now); phone.endOfInput(now: now) } else { watch.onFrame(connection, frame, now: now); watch.endOfInput(now: now) }
            collect()
            guardCount += 1
        }
    }
}
