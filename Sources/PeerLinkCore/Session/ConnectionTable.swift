
/// The link that is up: its connection and its liveness.
struct LinkUp: Sendable, Equatable {
    let id: ConnectionID
    var liveness: Liveness

    init(id: ConnectionID, now: EpochMs) {
        self.id = id
        liveness = Liveness(now: now)
    }
}

/// Where a connection stands.
enum ConnectionPhase: Sendable, Equatable {
    /// Never opened here, or closed, refused or replaced: its bytes are ignored.
    case idle
    /// Running the pairing handshake.
    case handshaking(Handshake)
    /// Authenticated: the link, carrying channel frames.
    case active(LinkUp)
}

/// The session's connections: any number in the handshake (the listener takes new ones while
/// a link is up: a reconnecting watch), and at most one link.
///
/// A connection number is the shell's; a shell that numbers a new connection like the link
/// (a test harness restarting one side) gets a handshake beside the link under that number,
/// and the handshake comes first (`phase`), as it always did. Transitions: opened →
/// handshaking (`[handshake:] =`); the handshake's end → the link (`activate`, once the old
/// link was closed: at most one); → idle (`close`). Others are preconditions.
struct ConnectionTable: Sendable {
    /// The connections in the handshake.
    private(set) var handshakes: [ConnectionID: Handshake] = [:]
    /// The link that is up, changed in place (`active!.liveness.…`).
    private(set) var link: LinkUp?
    /// The link's connection, kept beside `link`: set in `activate`, cleared in `close`, the
    /// only places `link` changes (`link?.id` copied the link's whole state, a dozen times a
    /// frame).
    private(set) var activeID: ConnectionID?
    /// The newest connection whose link came up in this run (0: none yet), kept after it
    /// closes: a handshake on an older connection is stale (the peer moved on from it).
    private(set) var newestLinkID: ConnectionID = 0
    /// Refusals logged in the current interval and those left out (`LinkConfig.refusalLogBurst`).
    var refusalLog = RefusalLog()

    init() {}

    /// Connection `id`'s phase.
    func phase(_ id: ConnectionID) -> ConnectionPhase {
        if let h = handshakes[id] { return .handshaking(h) }
        if let up = link, up.id == id { return .active(up) }
        return .idle
    }

    /// Whether connection `id` is in the handshake or is the link (`phase(id) != .idle`,
    /// without copying either).
    func isOpen(_ id: ConnectionID) -> Bool {
        activeID == id || handshakes[id] != nil
    }

    // MARK: - Handshakes

    /// The handshake of connection `id`, while it is in one; setting nil ends it.
    subscript(handshake id: ConnectionID) -> Handshake? {
        get { handshakes[id] }
        set { handshakes[id] = newValue }
    }

    /// The connections in the handshake, by id.
    var handshakesByID: [(id: ConnectionID, handshake: Handshake)] {
        handshakes.map { ($0.key, $0.value) }.sorted { $0.id < $1.id }
    }

    var handshakeCount: Int { handshakes.count }

    // MARK: - The link

    /// The link, changed in place; it comes up only through `activate` and goes only
    /// through `close`.
    var active: LinkUp? {
        get { link }
        _modify {
            let id = link?.id
            yield &link
            precondition(link?.id == id, "a link comes up only through activate and goes only through close")
        }
    }

    /// The handshake of `id` ended well (and was ended): `id` becomes the link.
    mutating func activate(_ id: ConnectionID, now: EpochMs) {
        precondition(link == nil, "at most one link is up: the old one is closed first")
        precondition(handshakes[id] == nil, "the handshake of \(id) is ended before its link comes up")
        link = LinkUp(id: id, now: now)
        activeID = id
        newestLinkID = max(newestLinkID, id)
    }

    /// Connection `id` closed (or was refused, replaced): its handshake ends, and so does the
    /// link when it is the link's. Returns the link when it was.
    @discardableResult
    mutating func close(_ id: ConnectionID) -> LinkUp? {
        handshakes[id] = nil
        guard let up = link, up.id == id else { return nil }
        link = nil
        activeID = nil
        return up
    }
}
