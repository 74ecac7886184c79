import PeerLinkCore

/// The event loop of the simulated network: time, connections, routing and faults.
extension SimulatedNetwork {
    // MARK: - Time

    /// Runs every event and timer up to `target`, then sets the clock to it.
    public func advance(to target: EpochMs) {
        while let t = nextTime(), t <= target {
            now = max(now, t)
            runDue()
        }
        now = max(now, target)
    }

    /// `advance(to: now + ms)`.
    public func advance(by ms: EpochMs) { advance(to: now + ms) }

    /// Runs until nothing is in flight and both nodes are idle (and connected, while the
    /// link is up), or `maxMs` of virtual time pass. Returns true when quiet.
    @discardableResult
    public func runUntilQuiet(maxMs: EpochMs = 600_000) -> Bool {
        let deadline = now + maxMs
        while !isQuiet {
            guard let t = nextTime(), t <= deadline else { now = max(now, deadline); return isQuiet }
            now = max(now, t)
            runDue()
        }
        return true
    }

    /// Nothing in flight, nothing outstanding, both connected (while the link is up).
    public var isQuiet: Bool {
        guard queue.isEmpty, !connecting, fatal == nil else { return false }
        // Read in place (`readSession`), not copied.
        guard phone.readSession({ $0.isIdle }), watch.readSession({ $0.isIdle }) else { return false }
        return isLinkUp ? (phone.isConnected && watch.isConnected) : true
    }

    func nextTime() -> EpochMs? {
        var t = queue.nextTime
        func consider(_ x: EpochMs?, _ role: DeviceRole) {
            guard var x, !downRoles[role] else { return }
            if x <= tickedAt[role] { x = tickedAt[role] + 1 }
            t = min(t ?? x, x)
        }
        consider(deadline(.phone), .phone)
        consider(deadline(.watch), .watch)
        return t
    }

    /// Handles every event due now, then the nodes' timers and the watch's connect.
    func runDue() {
        while let t = queue.nextTime, t <= now, let (_, e) = queue.pop() { handle(e) }
        if !downRoles[.phone], let d = deadline(.phone), d <= now, tickedAt[.phone] < now {
            tickedAt[.phone] = now
            phone.tick(now: now)
            route(.phone)
        }
        if !downRoles[.watch], let d = deadline(.watch), d <= now, tickedAt[.watch] < now {
            tickedAt[.watch] = now
            maybeConnect()
            watch.tick(now: now)
            route(.watch)
        }
    }

    func maybeConnect() {
        guard !connecting, !downRoles[.watch], let due = watch.nextConnectAtMs, due <= now else { return }
        connecting = true
        watch.connectStarted(now: now)
        queue.push(now + baseLatencyMs, .connectDone(watchGeneration: generation[.watch]))
    }

    func handle(_ e: SimEvent) {
        switch e {
        case .connectDone(let g):
            guard g == generation[.watch] else { return }
            connecting = false
            guard isLinkUp, link == nil, !downRoles[.phone] else {
                note("\(now) connect failed")
                watch.connectFailed(now: now)
                route(.watch)
                return
            }
            let id = nextConnection
            nextConnection += 1
            link = SimLink(id: id)
            lastArrival = PerRole(both: now)
            note("\(now) connect \(id)")
            let keys = ephemeralKeyPair()
            phone.connectionOpened(id, isInitiator: false, ephemeralKey: keys.phone, now: now)
            watch.connectionOpened(id, isInitiator: true, ephemeralKey: keys.watch, now: now)
            route(.phone)
            route(.watch)
        case .bytes(let conn, let to, let g, let bytes):
            guard g == generation[to], !downRoles[to] else { return }
            if to == .phone { phone.received(conn, bytes[...], now: now) } else { watch.received(conn, bytes[...], now: now) }
            route(to)
        case .closed(let conn, let to, let g):
            guard g == generation[to], !downRoles[to] else { return }
            if to == .phone { phone.connectionClosed(conn, now: now) } else { watch.connectionClosed(conn, now: now) }
            route(to)
        }
    }

    // MARK: - Routing

    /// Carries out what a node asked for.
    func route(_ role: DeviceRole) {
        deadlines[role == .phone ? 0 : 1] = nil
        observer?(role)
        var outputs = Array.borrow(&spareOutputs)
        defer { outputs.giveBack(to: &spareOutputs) }
        while true {
            if role == .phone { phone.drainOutput(into: &outputs) } else { watch.drainOutput(into: &outputs) }
            if outputs.isEmpty { return }
            for o in outputs {
                switch o {
                case .send(let id, let bytes, let summary): transmit(from: role, id, bytes, summary)
                case .close(let id, let reason): close(from: role, id, reason: reason)
                case .log(let level, let message): logs.append("\(now) \(role) \(level.rawValue): \(message)")
                case .fatal(let message):
                    fatal = "\(role): \(message)"
                    logs.append("\(now) \(role) fatal: \(message)")
                }
            }
        }
    }

    /// Puts one write (one frame) on the wire from `role`, through the relay and the faults.
    func transmit(from role: DeviceRole, _ id: ConnectionID, _ bytes: [UInt8], _ summary: FrameSummary?) {
        if rawConnections.contains(id) {
            rawReplies[id, default: []] += bytes  // a raw connection's answers: kept for `rawReply`
            return
        }
        guard link?.id == id else { return }  // a closed connection
        guard let relay else { return carry(from: role, id, bytes, summary) }
        for write in relay(role, id, bytes) { carry(from: role, id, write, summary) }
    }

    /// Carries one write of the link through the faults.
    func carry(from role: DeviceRole, _ id: ConnectionID, _ bytes: [UInt8], _ summary: FrameSummary?) {
        let to = role.peer
        let dir = role == .phone ? "phone→watch" : "watch→phone"
        guard var l = link, l.id == id else { return }  // closed meanwhile
        var bytes = bytes
        var cutAfter = false
        if let limit = faults.closeAfterBytes.map({ Int(clamping: $0) }), l.bytesCarried + bytes.count >= limit {
            bytes = Array(bytes.prefix(max(0, limit - l.bytesCarried)))
            cutAfter = true
        }
        l.bytesCarried += bytes.count
        link = l
        let kind = recordsTrace ? summary.map { labeler.label(sending: $0, direction: dir) } ?? FrameLabeler.label(record: bytes) : ""
        var start = max(now, wireFreeAt[role])
        let sendStart = start
        if let bps = faults.bandwidthBytesPerSecond, bps > 0 { start += (EpochMs(bytes.count) * 1000 + bps - 1) / bps }
        wireFreeAt[role] = start
        let delay = baseLatencyMs + (jitterSpreadMs > 0 ? EpochMs(rng.next() % UInt64(jitterSpreadMs + 1)) : 0)
        var arrival = start + delay
        let g = generation[to]
        if !cutAfter, rng.chance(faults.lossPercent) {
            note(FrameTraceLine.make(at: now, dir, kind, bytes: bytes.count, FrameFate.dropped.rawValue))
            recordFrame(from: role, kind, bytes.count, .dropped, [])
        } else if !cutAfter, rng.chance(faults.reorderPercent) {
            note(FrameTraceLine.make(at: now, dir, kind, bytes: bytes.count, FrameFate.reordered.rawValue))
            let late = arrival + baseLatencyMs + 1 + EpochMs(rng.next() % 20)
            recordFrame(from: role, kind, bytes.count, .reordered, [late])
            schedule(bytes, id, to: to, generation: g, at: late)
        } else {
            let previousArrival = lastArrival[to]
            arrival = max(arrival, previousArrival)
            lastArrival[to] = arrival
            let tampered = !cutAfter && rng.chance(faults.tamperPercent)
            if tampered { bytes = RecordTamper.flippingOneByte(bytes, random: rng.next()) }
            let dup = !cutAfter && !tampered && rng.chance(faults.duplicatePercent)
            let fate: FrameFate = tampered ? .tampered : dup ? .duplicated : .delivered
            note(FrameTraceLine.make(at: now, dir, kind, bytes: bytes.count, fate.rawValue))
            recordFrame(from: role, kind, bytes.count, fate, dup ? [arrival, arrival] : [arrival])
            // Over a slow link the frame's bytes arrive in pieces over its transfer time (not
            // while frames are reordered: a late frame must not land inside another one).
            let pieces = faults.reorderPercent > 0 ? [(end: bytes.count, atMs: arrival)]
                : BandwidthPieces.pieces(count: bytes.count, startMs: sendStart, endMs: start, delayMs: delay, lastAtMs: arrival)
            if pieces.count == 1 {
                schedule(bytes, id, to: to, generation: g, at: max(pieces[0].atMs, previousArrival))  // the frame whole, not copied
            } else {
                var pieceStart = 0
                for piece in pieces {
                    schedule(Array(bytes[pieceStart..<piece.end]), id, to: to, generation: g, at: max(piece.atMs, previousArrival))
                    pieceStart = piece.end
                }
            }
            if dup { schedule(bytes, id, to: to, generation: g, at: arrival) }
        }
        if cutAfter {
            note("\(now) closed after \(l.bytesCarried) bytes")
            link = nil
            let at = max(now, lastArrival[to], lastArrival[role])
            queue.push(at, .closed(conn: id, to: to, generation: g))
            queue.push(at, .closed(conn: id, to: role, generation: generation[role]))
        }
    }

    /// Keeps the frame just noted in the trace as data, for the run report.
    func recordFrame(from role: DeviceRole, _ label: String, _ bytes: Int, _ fate: FrameFate, _ arrivals: [EpochMs]) {
        guard recordsFrames, recordsTrace else { return }
        frames.append(FrameRecord(sentMs: now, from: role, label: label, bytes: bytes, fate: fate, arrivalsMs: arrivals))
    }

    func schedule(_ bytes: [UInt8], _ id: ConnectionID, to: DeviceRole, generation g: Int, at t: EpochMs) {
        guard let slice = faults.sliceBytes, slice > 0, bytes.count > slice else {
            queue.push(t, .bytes(conn: id, to: to, generation: g, bytes: bytes))
            return
        }
        var i = 0
        while i < bytes.count {
            queue.push(t, .bytes(conn: id, to: to, generation: g, bytes: Array(bytes[i..<min(bytes.count, i + slice)])))
            i += slice
        }
    }

    /// A node closed a connection: it sees the close now; the peer after what was sent arrives.
    func close(from role: DeviceRole, _ id: ConnectionID, reason: String) {
        if rawConnections.remove(id) != nil {
            note("\(now) raw connection \(id) closed: \(reason)")
        } else {
            guard let l = link, l.id == id else { return }
            note("\(now) \(role) closes \(id): \(reason)")
            link = nil
            queue.push(max(now, lastArrival[role.peer]) + baseLatencyMs, .closed(conn: id, to: role.peer, generation: generation[role.peer]))
        }
        if role == .phone { phone.connectionClosed(id, now: now) } else { watch.connectionClosed(id, now: now) }
    }

    /// Cuts the connection at once (reset, link down): frames in flight are lost.
    func cut(reason: String) {
        guard let l = link else { return }
        link = nil
        queue.removeAll { if case .bytes(let c, _, _, _) = $0 { c == l.id } else { false } }
        queue.push(now, .closed(conn: l.id, to: .phone, generation: generation[.phone]))
        queue.push(now, .closed(conn: l.id, to: .watch, generation: generation[.watch]))
    }
}
