import Shared

/// What the watch app has asked of the link so far: counters for queries and reports, and the
/// latest effects for tests. Bounded: only the last `maxRecent` summaries are kept.
public struct WatchLinkLog: Sendable, Hashable {
    /// Summaries kept in `recent`.
    public static let maxRecent = 32

    /// Live-metrics messages produced (the mirroring budget and reachability allowed them).
    public internal(set) var mirrorSent = 0
    /// Live-metrics payloads not sent: phone unreachable, or the budget said skip.
    public internal(set) var mirrorSkipped = 0
    /// Bytes of the live-metrics payloads sent (canonical-encoding sizes).
    public internal(set) var mirrorBytes = 0
    /// Why the last payload was skipped.
    public internal(set) var lastSkipReason: String?
    /// `sendMessage` effects of any kind.
    public internal(set) var messagesSent = 0
    /// `transferFile` effects.
    public internal(set) var filesSent = 0
    /// The last message produced.
    public internal(set) var lastMessage: PlistValue?
    /// The last file transfer produced (name, bytes, metadata).
    public internal(set) var lastFile: WatchLinkEffect?
    /// Summaries of the latest effects, oldest first.
    public internal(set) var recent: [String] = []

    /// An empty log.
    public init() {}

    // MARK: - Recording

    /// Records an effect handed to the link.
    public mutating func record(_ effect: WatchLinkEffect) {
        switch effect {
        case .sendMessage(let m):
            messagesSent += 1
            lastMessage = m
            if m["type"]?.stringValue == MirrorPayload.type {
                mirrorSent += 1
                mirrorBytes += MirrorPayload.canonicalSize(m)
            }
        case .transferFile:
            filesSent += 1
            lastFile = effect
        }
        recent.append(effect.summary)
        if recent.count > Self.maxRecent { recent.removeFirst(recent.count - Self.maxRecent) }
    }

    /// Records a live-metrics payload that was not sent, and why.
    public mutating func recordSkip(_ reason: String) {
        mirrorSkipped += 1
        lastSkipReason = reason
    }

    // MARK: - Rendering

    /// The log as JSON: the counters, the last skip reason and the recent summaries.
    public func jsonValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "mirrorSent": .int(Int64(mirrorSent)), "mirrorSkipped": .int(Int64(mirrorSkipped)),
            "mirrorBytes": .int(Int64(mirrorBytes)), "messagesSent": .int(Int64(messagesSent)),
            "filesSent": .int(Int64(filesSent)), "recent": .array(recent.map { .string($0) }),
        ]
        if let lastSkipReason { d["lastSkipReason"] = .string(lastSkipReason) }
        if case .transferFile(let name, let bytes, let metadata)? = lastFile {
            d["lastFile"] = ["name": .string(name), "bytes": .int(Int64(bytes.count)), "metadata": metadata]
        }
        return .dictionary(d)
    }

    /// One line per counter, then the recent effects.
    public func text() -> String {
        var lines = [
            "mirror: \(mirrorSent) sent (\(mirrorBytes) B), \(mirrorSkipped) skipped"
                + (lastSkipReason.map { " — last: \($0)" } ?? ""),
            "messages: \(messagesSent), files: \(filesSent)",
        ]
        lines += recent.suffix(5).map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
