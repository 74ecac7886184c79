import PeerLinkCore
import PeerLinkSim

extension ScenarioRunner {
    /// What each running node still has in flight, from its `sync-state` answer.
    func outstandingSummary() throws -> String {
        var parts: [String] = []
        for role in DeviceRole.allCases where driver.isRunning(role) {
            guard case .success(let s) = try driver.call(role, "query sync-state") else { continue }
            let items = ConvergenceCheck.outstandingItems(s)
            parts.append("\(role): " + (items.isEmpty ? "nothing" : items.joined(separator: ", ")))
        }
        return parts.joined(separator: "; ")
    }

    /// The parts of the two nodes' sync state that differ (see `ConvergenceCheck`).
    func syncStateDifferences() throws -> [String] {
        guard case .success(let p) = try driver.call(.phone, "query sync-state") else { return ["the phone did not report its sync state"] }
        guard case .success(let w) = try driver.call(.watch, "query sync-state") else { return ["the watch did not report its sync state"] }
        return ConvergenceCheck.differences(phone: p, watch: w, damagedAtMs: damagedAtMs, lostToDamage: filesLostToDamage)
    }

    /// `role`'s `sync-state`, or nil when it is down or does not answer. Only reads: the run
    /// and its trace are the same with it.
    func syncStateIfRunning(_ role: DeviceRole) -> PlistValue? {
        guard driver.isRunning(role), case .success(let s)? = try? driver.call(role, "query sync-state") else { return nil }
        return s
    }

    /// Damages `role`'s store (`damage`, given the run's next seed) with the node down, notes
    /// the damage and restarts the node on its clock, noting the file records the damage took
    /// (asked before the kill and after the restart); returns what `damage` returned.
    @discardableResult
    func damageStore<T>(_ role: DeviceRole, rollback: Bool, _ damage: (UInt64) throws -> T) throws -> T {
        let records = syncStateIfRunning(role)
        try driver.kill(role)
        seed &+= 0x9E37
        let result = try damage(seed)
        damagedAtMs[role] = nowMs
        workload?.storeDamaged(role, atMs: nowMs, rollback: rollback)
        try restartOnItsClock(role)
        noteFilesLost(role, before: records)
        return result
    }

    /// Notes the file records `role`'s store held before a damage (`before`, asked just
    /// before it) and no longer holds after its restart. Either answer missing: nothing is
    /// noted, and only the damage's time excuses.
    func noteFilesLost(_ role: DeviceRole, before: PlistValue?) {
        guard let before, let after = syncStateIfRunning(role) else { return }
        filesLostToDamage.note(role, before: before, after: after)
    }

    /// Waits (in virtual time, up to `convergeWithinMs`) until both nodes are connected and
    /// agree on everything they must (`ConvergenceCheck`): equal digests, contexts,
    /// complication payload and files, nothing in flight.
    func converge(_ step: ScenarioStep) throws -> CheckOutcome {
        let limit = nowMs + convergeWithinMs
        while true {
            let q = try driver.settle()
            let connected = q.phoneConnected && q.watchConnected
            var equal = false
            var digests = ("?", "?")
            if driver.isRunning(.phone), driver.isRunning(.watch) {
                let pd = try driver.call(.phone, "digest"), wd = try driver.call(.watch, "digest")
                if case .success(let p) = pd, case .success(let w) = wd {
                    digests = (p.stringValue ?? "?", w.stringValue ?? "?")
                    equal = p == w
                }
            }
            var parts: [String] = []
            if connected && q.nothingOutstanding && equal {
                parts = try syncStateDifferences()
                if parts.isEmpty {
                    return CheckOutcome(location: step.location, description: "expect converged", passed: true, detail: "")
                }
            }
            if nowMs >= limit {
                var why: [String] = []
                if !connected { why.append("the link is down") }
                if !q.nothingOutstanding { why.append("transfers still outstanding (\(try outstandingSummary()))") }
                if !equal { why.append("digests differ (phone \(digests.0.prefix(16))…, watch \(digests.1.prefix(16))…)") }
                why += parts
                return CheckOutcome(location: step.location, description: "expect converged", passed: false,
                                    detail: why.joined(separator: "; ") + " after \(convergeWithinMs / 1000) s")
            }
            try moveClocks(to: min(q.nextEventMs.map { max($0, nowMs + 1) } ?? nowMs + 1000, limit))
        }
    }
}
