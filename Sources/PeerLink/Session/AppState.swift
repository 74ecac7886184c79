import Shared

/// What each side tells the other about its app: the inputs of reachability.
public struct AppState: Sendable, Equatable {
    /// The app process is running (foreground or background).
    public var isRunning = true
    /// The app is in the foreground (watch: on screen, wrist up).
    public var isForeground = true
    /// A workout session is prepared or running (watch only): keeps the app running and reachable.
    public var workoutActive = false
    /// The complication is on the active watch face (watch only).
    public var complicationEnabled = true

    public init(isRunning: Bool = true, isForeground: Bool = true, workoutActive: Bool = false, complicationEnabled: Bool = true) {
        self.isRunning = isRunning
        self.isForeground = isForeground
        self.workoutActive = workoutActive
        self.complicationEnabled = complicationEnabled
    }

    /// The watch app can take live messages: foreground, or a workout keeps it at high priority.
    public var watchAppReachable: Bool { isRunning && (isForeground || workoutActive) }

    var flags: UInt8 {
        (isRunning ? 1 : 0) | (isForeground ? 2 : 0) | (workoutActive ? 4 : 0) | (complicationEnabled ? 8 : 0)
    }

    init(flags: UInt8) {
        self.init(isRunning: flags & 1 != 0, isForeground: flags & 2 != 0, workoutActive: flags & 4 != 0, complicationEnabled: flags & 8 != 0)
    }
}

/// The user-info outbox in memory: a queue ordered by seq with cheap removal from the front.
struct OutboxQueue: Sendable, Equatable {
    private(set) var items: [OutboxItem]
    private var head = 0

    init(_ items: [OutboxItem]) { self.items = items.sorted { $0.seq < $1.seq } }

    var count: Int { items.count - head }
    var isEmpty: Bool { count == 0 }
    var live: ArraySlice<OutboxItem> { items[head...] }

    mutating func append(_ item: OutboxItem) { items.append(item) }

    /// Removes and returns every item with seq ≤ `seq` (they are at the front).
    mutating func removeThrough(_ seq: UInt64) -> [OutboxItem] {
        var end = head
        while end < items.count && items[end].seq <= seq { end += 1 }
        let removed = Array(items[head..<end])
        head = end
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return removed
    }

    /// Removes the item with `seq`, wherever it is.
    mutating func remove(seq: UInt64) -> OutboxItem? {
        guard let i = items[head...].firstIndex(where: { $0.seq == seq }) else { return nil }
        return items.remove(at: i)
    }

    /// The seq of the live item just before `seq`, or nil when it is the first.
    func seq(before seq: UInt64) -> UInt64? {
        guard let i = items[head...].firstIndex(where: { $0.seq == seq }), i > head else { return nil }
        return items[i - 1].seq
    }
}
