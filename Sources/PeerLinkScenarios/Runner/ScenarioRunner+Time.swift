import PeerLinkCore
import PeerLinkSim

extension ScenarioRunner {
    // MARK: - Time

    /// Moves every clock to `target`, stopping at each timer or delivery on the way. Over a
    /// healthy idle link (no fault, both nodes up and connected, nothing outstanding) it skips
    /// the heartbeats and stops only where something else is due.
    func advance(to target: EpochMs) throws {
        while nowMs < target {
            let q = try driver.settle()
            let idle = canFastForward(q)
            let next = (idle ? q.nextWorkEventMs : q.nextEventMs).map { max($0, nowMs + 1) } ?? target
            try moveClocks(to: min(next, target), idleLink: idle)
        }
    }

    /// A line of the runner's own (a fault, a restart) in the timeline, after what the
    /// driver recorded of the step: the timeline stays in time order.
    func note(_ line: String) {
        timeline += driver.takeTimeline()
        timeline.append(line)
    }

    /// Fast-forward is exact only when nothing can happen on the link but heartbeats.
    func canFastForward(_ q: QuietState) -> Bool {
        fastForward && faults.isClear && q.phoneConnected && q.watchConnected && q.nothingOutstanding && !q.connecting
            && driver.isRunning(.phone) && driver.isRunning(.watch)
    }

    func moveClocks(to t: EpochMs, idleLink: Bool = false) throws {
        guard t > nowMs else { return }
        nowMs = t
        for role in DeviceRole.allCases where driver.isRunning(role) {
            let m = clocks[role]
            if m != WallClockModel() { try driver.setWallOffset(role, m.offset(at: t)) }
        }
        try driver.advanceClocks(to: t, idleLink: idleLink)
        try damageArmedPartialFiles()
        recorder?.timePassed(driver, to: t)
    }

    /// `damage-partial-file`: once the node holds a partial incoming file with committed
    /// content, it is killed, bytes of that content are changed, and it is restarted.
    func damageArmedPartialFiles() throws {
        guard !armedFileDamage.isEmpty else { return }
        for role in DeviceRole.allCases where armedFileDamage.contains(role) && driver.isRunning(role) {
            _ = try driver.settle()
            guard let (path, committed) = try driver.partialIncomingFile(role), committed > 0 else { continue }
            armedFileDamage.remove(role)
            try driver.kill(role)
            seed &+= 0x9E37
            let what = try driver.damagePartialFile(role, path: path, committedBytes: committed, seed: seed)
            try restartOnItsClock(role)
            note("\(nowMs) damage the partial file of \(role) (\(what ?? "nothing to damage")), restart")
        }
    }

    /// Starts a killed node again on its device's clock: the offset goes first, so the launch
    /// (the store's opening, the clock floor's check) sees the time the device shows now,
    /// however its clock moved or drifted while the node was down.
    func restartOnItsClock(_ role: DeviceRole) throws {
        try driver.setWallOffset(role, clocks[role].offset(at: nowMs))
        try driver.restart(role)
    }
}
