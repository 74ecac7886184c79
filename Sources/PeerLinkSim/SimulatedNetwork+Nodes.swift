import PeerLinkCore

/// Node lifecycle and clocks of the simulated network: kill and restart (apart or at once),
/// store damage, wall-clock offsets, time zones, and the scenario runner's clock moves.
extension SimulatedNetwork {
    // MARK: - Kill and restart

    /// True while `role` is killed and not restarted.
    public func isDown(_ role: DeviceRole) -> Bool { downRoles[role] }

    /// `kill -9` of `role`: it stays down (no timers, no input, no connection attempts;
    /// connections to a down phone fail) until `restart(_:)`. What it committed survives.
    public func kill(_ role: DeviceRole) { kill(role, note: "kill") }

    func kill(_ role: DeviceRole, note word: String) {
        guard !downRoles[role] else { return }
        note("\(now) \(word) \(role)")
        generation[role] += 1
        queue.removeAll { e in
            switch e {
            case .bytes(_, let to, _, _), .closed(_, let to, _): to == role
            case .connectDone: role == .watch
            }
        }
        if role == .watch { connecting = false }
        if let l = link {
            link = nil
            // The kernel closes the dead process's sockets: the peer sees the close.
            queue.push(max(now, lastArrival[role.peer]) + baseLatencyMs, .closed(conn: l.id, to: role.peer, generation: generation[role.peer]))
        }
        tickedAt[role] = -1
        downRoles[role] = true
    }

    /// Starts a killed `role` again over its store and files (a corrupt store is reset, as
    /// the process shell quarantines it). Does nothing when it is running.
    public func restart(_ role: DeviceRole) throws { try restart(role, note: "restart") }

    func restart(_ role: DeviceRole, note word: String?) throws {
        guard downRoles[role] else { return }
        if let word { note("\(now) \(word) \(role)") }
        var r = rng
        let offset = offsetAtRestart[role] ?? (role == .phone ? phone.wallOffsetMs : watch.wallOffsetMs)
        if role == .phone {
            phone = try Self.build(phoneSetup, role: .phone, store: phoneStore, files: phoneFiles, now: now, wallOffsetMs: offset, rng: &r)
            phone.summarizesFrames = recordsTrace
        } else {
            watch = try Self.build(watchSetup, role: .watch, store: watchStore, files: watchFiles, now: now, wallOffsetMs: offset, rng: &r)
            watch.summarizesFrames = recordsTrace
        }
        rng = r
        offsetAtRestart[role] = nil
        downRoles[role] = false
        route(role)
    }

    /// The store of `role` (it outlives the node).
    public func store(_ role: DeviceRole) -> MemoryStore { role == .phone ? phoneStore : watchStore }

    /// Undoes the last `n` commits of the (killed) node's store, as a write-ahead log that
    /// lost its tail would. Returns how many were undone.
    @discardableResult
    public func rollBack(_ role: DeviceRole, commits n: Int) -> Int {
        let undone = store(role).rollBack(commits: n)
        note("\(now) roll back \(role) by \(undone) commits")
        return undone
    }

    // MARK: - Clocks

    /// Sets the wall-clock offset of a node (a clock fault). A running node's app sees the new
    /// time at once; a killed node is started with it (its device's clock moved while it was down).
    public func setWallOffset(_ role: DeviceRole, _ offsetMs: Int64) {
        guard !downRoles[role] else {
            offsetAtRestart[role] = offsetMs
            return
        }
        if role == .phone { phone.setWallOffset(offsetMs, now: now) } else { watch.setWallOffset(offsetMs, now: now) }
        route(role)
    }

    /// Changes a running node's time zone.
    public func setCalendar(_ role: DeviceRole, _ calendar: LocalCalendar) {
        guard !downRoles[role] else { return }
        if role == .phone { phone.setCalendar(calendar, now: now) } else { watch.setCalendar(calendar, now: now) }
        route(role)
    }

    /// Moves the clock to `target`: every event and due timer on the way runs. With
    /// `idleLink` the time passed over a healthy idle link (the scenario runner's fast-forward):
    /// nothing on the way is run (the caller stops at real work) and each running node with a
    /// timer due gets one tick at `target` in which heartbeats count as exchanged.
    public func moveClock(to target: EpochMs, idleLink: Bool) {
        guard idleLink else {
            advance(to: target)
            return
        }
        now = max(now, target)
        // A node none of whose timers (heartbeat and silence check included) is due has
        // nothing to do at `target`; its next idle tick takes the link's time as exchanged.
        for role in DeviceRole.allCases where !downRoles[role] {
            guard let d = deadline(role), d <= now else { continue }
            tickedAt[role] = now
            if role == .phone { phone.tick(now: now, idleLink: true) } else { watch.tick(now: now, idleLink: true) }
            route(role)
        }
        advance(to: now)
    }

    /// The earliest queued delivery or timer of a running node (nil: nothing).
    public var nextEventTime: EpochMs? { nextTime() }

    /// The same, without the timers that only keep an idle healthy link alive.
    public var nextWorkTime: EpochMs? {
        var t = queue.nextTime
        func consider(_ x: EpochMs?, _ role: DeviceRole) {
            guard var x, !downRoles[role] else { return }
            if x <= tickedAt[role] { x = tickedAt[role] + 1 }
            t = min(t ?? x, x)
        }
        consider(deadline(.phone, work: true), .phone)
        consider(deadline(.watch, work: true), .watch)
        return t
    }

    /// The node has user info awaiting acknowledgement or a replica delta in flight (what the
    /// process shell's `status` reports as `outstandingUserInfo` and `syncInFlight`).
    public func hasOutstanding(_ role: DeviceRole) -> Bool {
        role == .phone ? phone.linkStatus.hasOutstanding : watch.linkStatus.hasOutstanding
    }

    /// The watch is trying to connect (the attempt has not completed).
    public var isConnecting: Bool { connecting }

    /// Frames queued for delivery (in flight).
    public var framesInFlight: Int { queue.count }

    /// The node's next deadline (`work`: without liveness timers), computed once per entry
    /// point: an engine's deadlines change only when it is called, and `route` follows every call.
    func deadline(_ role: DeviceRole, work: Bool = false) -> EpochMs? {
        let i = role == .phone ? 0 : 1
        if let c = deadlines[i] { return work ? c.work : c.all }
        let c = role == .phone ? phone.deadlines : watch.deadlines
        deadlines[i] = c
        return work ? c.work : c.all
    }

    func note(_ line: @autoclosure () -> String) {
        if recordsTrace { traceLines.append(line()) }
    }
}
