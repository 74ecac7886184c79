import PeerLinkCore
import PeerLinkSim

extension SimDriver {
    /// The network's frames (kept with `SimOptions.recordsReport`).
    public func takeFrames() -> [FrameRecord] { network?.frames ?? [] }

    /// Asks the engine in place (`readOnlyCommand`): no entry point runs, nothing changes.
    public func captureScreens(_ role: DeviceRole, _ screens: [String]) -> [String: String] {
        guard let n = network, !n.isDown(role) else { return [:] }
        var out: [String: String] = [:]
        for s in screens {
            let c = NodeCommand(words: ["show", s, "--svg"], raw: "show \(s) --svg")
            let r = role == .phone ? n.phone.readOnlyCommand(c, now: n.now) : n.watch.readOnlyCommand(c, now: n.now)
            if let r, r.isOK, let svg = r.value.stringValue { out[s] = svg }
        }
        return out
    }
}

extension ProcessDriver {
    /// The fault proxy's frames.
    public func takeFrames() -> [FrameRecord] { proxy?.takeFrames() ?? [] }

    /// Sends every `show SCREEN --svg` on the node's control channel at once, then collects the
    /// answers (the node answers them read-only, between its other work).
    public func captureScreens(_ role: DeviceRole, _ screens: [String]) -> [String: String] {
        guard let n = nodes[role] else { return [:] }
        var tags: [(String, Int)] = []
        for s in screens {
            if let tag = try? n.send("show \(s) --svg") { tags.append((s, tag)) }
        }
        var out: [String: String] = [:]
        for (s, tag) in tags {
            if case .success(let v)? = try? n.answer(to: tag, "show \(s) --svg"), let svg = v.stringValue { out[s] = svg }
        }
        return out
    }
}
