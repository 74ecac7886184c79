
/// Everything an app core may touch: the clock reading, the calendar and language, the
/// replicated state, the link session, and its own durable key-value state.
///
/// Writes accumulate in one batch that the engine commits at the end of the current event,
/// before any frame caused by that event goes out.
public struct NodeContext: Sendable {
    public let role: DeviceRole
    /// The node's clock reading for the current event.
    public internal(set) var now: EpochMs
    /// The device's local calendar (time zone), which may change (travel).
    public var calendar: LocalCalendar
    public var language: AppLanguage
    public internal(set) var session: LinkSession
    public internal(set) var replica: ReplicaState
    var sync: ReplicaSync
    var batch = WriteBatch()
    /// The app's own durable values (not replicated), loaded at launch.
    public internal(set) var local = LocalValues()
    /// The row keys (UTF-8) of the local values written lately.
    var localKeyRows = LocalKeyRows()
    /// Log lines produced during the current event.
    var logs: [(LogLevel, String)] = []
    /// Lines for the person at the node's prompt produced during the current event — a reply
    /// that came later, a finished transfer, what the peer sent by hand (`notify`). The shell
    /// prints them; they are neither log lines nor durable.
    var notices: [String] = []
    /// The latest WatchConnectivity errors the node saw, oldest first (`noteLinkError`).
    public internal(set) var recentLinkErrors: [LinkErrorNote] = []
    /// Transfers sent by hand at the prompt (`userinfo send`, `file send`, `complication push
    /// JSON`), by id: their outcomes are shown to the person, never handed to the app. Durable.
    var handTransfers: Set<String> = []
    /// `wc replies withhold`: the app's replies to messages are never sent, as from an app stuck
    /// in its handler (the sender's message times out). Not durable.
    var repliesWithheld = false
    /// The effects the app asked for in the current event (`perform(_:)`), not yet performed.
    var effects: [AppEffect] = []

    /// True during `onLaunch` when the store was found corrupt and started empty: the peer
    /// may hold records this store has not seen yet (see `hasAppliedPeerState`).
    public internal(set) var launchedAfterStoreReset = false

    static let localTable = StoreTable("app_local")
    /// The ids of the transfers sent by hand (`handTransfers`).
    static let handTable = StoreTable("node_hand")

    /// True once this store applied the peer's changes from the peer's first write on (a
    /// complete delta): until then the peer may hold records, and ids, this store has not seen.
    public var hasAppliedPeerState: Bool { sync.persistent.peerWatermark > 0 }

    /// This store's replica incarnation (random, chosen when the store was created).
    public var storeIncarnation: UInt64 { sync.persistent.incarnation }

    /// The replica sync's durable bookkeeping (what it acknowledged of the peer and the peer of
    /// it), for checkers.
    public var syncPersistent: ReplicaSync.Persistent { sync.persistent }

    // MARK: - Replicated state

    /// Writes a typed record (all its fields) to the replicated state.
    @discardableResult
    public mutating func put<R: ReplicatedRecord>(_ record: R) -> Result<HLCTimestamp, ReplicaState.WriteRefusal> {
        replica.put(record, wallMs: now)
    }

    /// Sets some fields of a record.
    @discardableResult
    public mutating func set(_ key: RecordKey, _ fields: [String: PlistValue]) -> Result<HLCTimestamp, ReplicaState.WriteRefusal> {
        replica.set(key, fields, wallMs: now)
    }

    /// Deletes a record (tombstone).
    @discardableResult
    public mutating func delete(_ key: RecordKey) -> Result<HLCTimestamp, ReplicaState.WriteRefusal> {
        replica.delete(key, wallMs: now)
    }

    // MARK: - Link

    /// `transferUserInfo`.
    public mutating func transferUserInfo(_ info: PlistValue) -> Result<UserInfoTransfer, WCError> {
        noted(session.transferUserInfo(info, now: session.clockMs), subject: "userInfo")
    }

    /// `result`, its failure noted for `link` (`recentLinkErrors`).
    mutating func noted<T>(_ result: Result<T, WCError>, subject: String) -> Result<T, WCError> {
        if case .failure(let e) = result { noteLinkError(e, subject: subject) }
        return result
    }

    /// Reports the app's state (foreground, workout…), which decides reachability.
    public mutating func setAppState(_ state: AppState) {
        session.setLocalAppState(state)
    }

    // MARK: - Local state

    /// Stores (or with nil removes) one of the app's own durable values.
    public mutating func setLocal(_ key: String, _ value: PlistValue?) {
        local.set(key, value)
        if let value {
            batch.put(Self.localTable, localKeyRows.row(key), CanonicalEncoding.encode(value))
        } else {
            batch.delete(Self.localTable, localKeyRows.row(key))
        }
    }

    /// Stores one of the app's own durable values given as its canonical bytes, written
    /// straight from its fields (values stored on every event); `local[key]` decodes them
    /// when read. The bytes MUST decode (`CanonicalEncoding`'s rules; checked in debug builds).
    public mutating func setLocal(_ key: String, encoded: [UInt8]) {
        assert((try? CanonicalEncoding.decode(encoded)) != nil, "the bytes given for \(key) are not a canonical encoding")
        local.set(key, encoded: encoded)
        batch.put(Self.localTable, localKeyRows.row(key), encoded)
    }

    // MARK: - Log

    public mutating func log(_ level: LogLevel, _ message: String) {
        logs.append((level, message))
    }
}
