
/// The session's output: one ordered list of `LinkAction`s, taken by the engine with
/// `LinkSession.drainActions(into:)` (or `drainActions()`).
///
/// Every part of the session appends to this one buffer (the channels through their typed
/// views, which offer only the actions each channel may produce), so the order of actions is
/// the order in which they were produced, whichever part produced them. That order is the
/// persist-before-send contract's (see `LinkAction`): a `.persist` appended before a `.send`
/// is committed before that frame leaves.
struct ActionBuffer: Sendable {
    private(set) var actions: [LinkAction] = []
    /// The session's scalar state changed: its meta row must be appended (`flushMeta`)
    /// before the next send that depends on it.
    var metaDirty = false

    init() {}

    /// How many actions are buffered (a mark: what a call appended is `actions[mark...]`).
    var count: Int { actions.count }

    mutating func append(_ action: LinkAction) { actions.append(action) }

    mutating func send(_ id: ConnectionID, _ frame: Frame) { actions.append(.send(id, frame)) }
    mutating func deliver(_ event: LinkEvent) { actions.append(.deliver(event)) }
    mutating func persist(_ batch: WriteBatch) { actions.append(.persist(batch)) }
    mutating func file(_ operation: FileOperation) { actions.append(.file(operation)) }
    mutating func close(_ id: ConnectionID, reason: String) { actions.append(.close(id, reason: reason)) }
    mutating func log(_ level: LogLevel, _ message: String) { actions.append(.log(level, message)) }

    /// Appends `body`'s batch unless it wrote nothing.
    mutating func persist(_ body: (inout WriteBatch) -> Void) {
        var b = WriteBatch()
        body(&b)
        if !b.isEmpty { actions.append(.persist(b)) }
    }

    /// The buffered actions, in order; the buffer is left empty.
    mutating func drain() -> [LinkAction] {
        defer { actions = [] }
        return actions
    }

    /// The buffered actions, in order, into `taken` (emptied first), whose storage the buffer
    /// keeps for the next actions.
    mutating func drain(into taken: inout [LinkAction]) {
        taken.take(from: &actions)
    }
}
