#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkSim

extension ProcessDriver {
    // MARK: - Commands and time

    public func call(_ role: DeviceRole, _ command: String) throws -> Result<PlistValue, NodeCallError> {
        if !Self.isReadOnly(command) { lastQuiet = nil }
        guard let n = nodes[role] else { return .failure(NodeCallError(message: "the \(role) is not running")) }
        return try n.call(command)
    }

    /// Sends `command` to every running node at once, then collects the answers.
    func callAll(_ command: String) throws -> [DeviceRole: PlistValue] {
        var tags: [(DeviceRole, NodeHandle, Int)] = []
        for role in DeviceRole.allCases { if let n = nodes[role] { tags.append((role, n, try n.send(command))) } }
        var out: [DeviceRole: PlistValue] = [:]
        for (role, n, tag) in tags {
            switch try n.answer(to: tag, command) {
            case .success(let v): out[role] = v
            case .failure(let e): throw NodeCallError(message: "\(role) `\(command)`: \(e.message)")
            }
        }
        return out
    }

    /// Commands that only read: they leave the nodes quiet.
    static func isReadOnly(_ command: String) -> Bool {
        command == "digest" || command == "status" || command.hasPrefix("query ")
    }

    public func settle() throws -> QuietState {
        if let q = lastQuiet { return q }
        let q = try settleNow()
        lastQuiet = q
        return q
    }

    func settleNow() throws -> QuietState {
        let deadline = ChildProcess.monotonicMs() + options.settleTimeoutMs
        var spins = 0
        while true {
            let all = try callAll("status")
            let sp = all[.phone]?.dictionaryValue, sw = all[.watch]?.dictionaryValue
            let px = proxy?.status() ?? ProxyStatus()
            if Self.isQuiet(sp, sw, px) {
                let outstanding = [sp, sw].compactMap { $0 }.contains { ($0["outstandingUserInfo"]?.intValue ?? 0) > 0 || $0["syncInFlight"]?.boolValue == true }
                let next = [sp?["nextDeadline"]?.intValue, sw?["nextDeadline"]?.intValue, px.nextDeliveryMs].compactMap { $0 }.min()
                let work = [sp?["nextWorkDeadline"]?.intValue, sw?["nextWorkDeadline"]?.intValue, px.nextDeliveryMs].compactMap { $0 }.min()
                let connecting = [sp, sw].compactMap { $0 }.contains { ($0["handshaking"]?.intValue ?? 0) > 0 }
                return QuietState(phoneConnected: sp?["connected"]?.boolValue ?? false, watchConnected: sw?["connected"]?.boolValue ?? false,
                                  nothingOutstanding: !outstanding, nextEventMs: next, nextWorkEventMs: work, connecting: connecting)
            }
            if ChildProcess.monotonicMs() > deadline {
                let show = { (s: [String: PlistValue]?) in s.map { PlistValue.dictionary($0).jsonString() } ?? "not running" }
                throw NodeCallError(message: "the nodes did not go quiet within \(options.settleTimeoutMs) ms (phone \(show(sp)), watch \(show(sw)), proxy \(px))")
            }
            spins += 1
            if spins > 20 { usleep(200) }
        }
    }

    /// Both nodes idle, every frame either sent on the current connection was taken in by
    /// the proxy, everything the proxy forwarded was taken in by the receiver, and the proxy
    /// holds nothing due now (frames held for later are timers, not work).
    static func isQuiet(_ p: [String: PlistValue]?, _ w: [String: PlistValue]?, _ px: ProxyStatus) -> Bool {
        for s in [p, w].compactMap({ $0 }) where s["connecting"]?.boolValue == true { return false }
        if px.deliverableNow > 0 { return false }
        guard px.pairOpen else {
            return [p, w].compactMap { $0 }.allSatisfy { ($0["openConnections"]?.intValue ?? 0) == 0 }
        }
        guard let p, let w else { return false }
        func n(_ v: PlistValue?) -> Int { Int(v?.intValue ?? -1) }
        return n(p["connFramesSent"]) == px.framesIn[.phoneToWatch, default: 0]
            && px.framesOut[.phoneToWatch, default: 0] == n(w["connFramesReceived"])
            && n(w["connFramesSent"]) == px.framesIn[.watchToPhone, default: 0]
            && px.framesOut[.watchToPhone, default: 0] == n(p["connFramesReceived"])
    }

    public func advanceClocks(to t: EpochMs, idleLink: Bool) throws {
        guard t > nowMs else { return }
        lastQuiet = nil
        nowMs = t
        proxy?.setNow(t)
        _ = try callAll("clock set \(t)" + (idleLink ? " idle-link" : ""))
    }

    public func setWallOffset(_ role: DeviceRole, _ offsetMs: Int64) throws {
        lastQuiet = nil
        // A killed node is launched with it (`--wall-offset`).
        if let node = nodes[role] { _ = try node.require("clock offset \(offsetMs)") }
        wallOffsets[role] = offsetMs
    }

    public func setFaults(_ faults: LinkFaults) throws {
        lastQuiet = nil
        proxy?.faults = faults
    }

    public func resetConnection() throws {
        lastQuiet = nil
        proxy?.resetConnection()
    }

    public func takeTimeline() -> [String] { proxy?.takeTimeline() ?? [] }

    /// The warnings and errors in both nodes' `node.log`.
    public func nodeLogs() -> [String] {
        DeviceRole.allCases.flatMap { role -> [String] in
            guard let text = readTextFile(stateDir(role) + "/node.log") else { return [] }
            return text.split(separator: "\n").filter { $0.contains("] warning:") || $0.contains("] error:") }.map(String.init)
        }
    }
}
