import PeerLinkCore
import CountdownDomain

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
    public internal(set) var lastFile: WatchEffect?
    /// Summaries of the latest effects, oldest first.
    public var recent: [String] { recentEffects.ordered.map(\.summary) }
    /// The latest effects as `recent` renders them, at most `maxRecent`: rendered when read,
    /// not on each live-metrics message (a string per second nobody reads).
    var recentEffects = RecentRing()

    /// The latest `maxRecent` entries, oldest first (`ordered`), kept in a ring: a full log
    /// overwrites its oldest entry instead of shifting the others (once per live message).
    /// Equal when the entries in order are.
    struct RecentRing: Sendable, Hashable {
        private var items: [RecentEffect] = []
        /// Where the oldest entry is once the ring is full.
        private var oldest = 0

        /// The entries, oldest first.
        var ordered: [RecentEffect] { oldest == 0 ? items : Array(items[oldest...] + items[..<oldest]) }

        mutating func append(_ entry: RecentEffect) {
            if items.count < WatchLinkLog.maxRecent {
                items.append(entry)
            } else {
                items[oldest] = entry
                oldest = oldest + 1 == items.count ? 0 : oldest + 1
            }
        }

        static func == (a: RecentRing, b: RecentRing) -> Bool { a.ordered == b.ordered }

        func hash(into hasher: inout Hasher) { hasher.combine(ordered) }
    }

    /// One entry of `recent`, not yet rendered.
    enum RecentEffect: Sendable, Hashable {
        case message(type: String?, bytes: Int)
        case other(summary: String)

        var summary: String {
            switch self {
            case .message(let type, let bytes): WatchEffect.messageSummary(type: type, bytes: bytes)
            case .other(let summary): summary
            }
        }
    }

    // MARK: What WatchConnectivity reported back

    /// Our messages that failed (`messageDidFail`: not reachable, no receipt, too large…).
    public internal(set) var messagesFailed = 0
    /// Messages the phone sent (`didReceiveMessage`).
    public internal(set) var messagesReceived = 0
    /// Files the session accepted (`transferFile` succeeded).
    public internal(set) var filesQueued = 0
    /// Files the phone verified and delivered (`didFinishFileTransfer` without an error).
    public internal(set) var filesDelivered = 0
    /// Files that finished with an error (or could not be queued).
    public internal(set) var filesFailed = 0
    /// Application contexts received from the phone (`didReceiveApplicationContext`).
    public internal(set) var contextsReceived = 0
    /// Complication pushes that came as complication user info (tagged current).
    public internal(set) var complicationPushes = 0
    /// Complication pushes that came as ordinary user info (the phone's budget was spent).
    public internal(set) var complicationPushesOrdinary = 0
    /// `WCErrorDomain` errors the app saw (any call or callback).
    public internal(set) var linkErrors = 0
    /// The code name of the last one (`notReachable`…).
    public internal(set) var lastLinkError: String?

    /// An empty log.
    public init() {}

    // MARK: - Recording

    /// Records an effect handed to the link.
    public mutating func record(_ effect: WatchEffect) {
        let entry: RecentEffect
        switch effect {
        case .sendMessage(let m):
            let bytes = MirrorPayload.canonicalSize(m)
            let type = m["type"]?.stringValue
            entry = .message(type: type, bytes: bytes)
            messagesSent += 1
            lastMessage = m
            if type == MirrorPayload.type {
                mirrorSent += 1
                mirrorBytes += bytes
            }
        case .transferFile:
            entry = .other(summary: effect.summary)
            filesSent += 1
            lastFile = effect
        }
        appendRecent(entry)
    }

    /// Records a live-metrics message (`MirrorPayload`) of canonical size `bytes` handed to the
    /// link: what `record(.sendMessage(payload))` records, without measuring the payload again.
    mutating func recordLiveMetrics(_ payload: PlistValue, bytes: Int) {
        messagesSent += 1
        lastMessage = payload
        mirrorSent += 1
        mirrorBytes += bytes
        appendRecent(.message(type: MirrorPayload.type, bytes: bytes))
    }

    private mutating func appendRecent(_ entry: RecentEffect) {
        recentEffects.append(entry)
    }

    /// Records a `WCErrorDomain` error by its code name.
    public mutating func recordLinkError(_ codeName: String) {
        linkErrors += 1
        lastLinkError = codeName
    }

    /// Records a complication push by the channel it came on.
    public mutating func recordComplicationPush(isComplicationChannel: Bool) {
        if isComplicationChannel { complicationPushes += 1 } else { complicationPushesOrdinary += 1 }
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
            "messagesFailed": .int(Int64(messagesFailed)), "messagesReceived": .int(Int64(messagesReceived)),
            "filesQueued": .int(Int64(filesQueued)), "filesDelivered": .int(Int64(filesDelivered)),
            "filesFailed": .int(Int64(filesFailed)), "contextsReceived": .int(Int64(contextsReceived)),
            "complicationPushes": .int(Int64(complicationPushes)),
            "complicationPushesOrdinary": .int(Int64(complicationPushesOrdinary)),
            "linkErrors": .int(Int64(linkErrors)), "lastLinkError": .string(lastLinkError ?? "none"),
        ]
        if let lastSkipReason { d["lastSkipReason"] = .string(lastSkipReason) }
        if case .transferFile(let name, let bytes, let metadata)? = lastFile {
            d["lastFile"] = ["name": .string(name), "bytes": .int(Int64(bytes.count)), "metadata": metadata]
        }
        return .dictionary(d)
    }

    /// One line per counter, then the recent effects (named by their WatchConnectivity call).
    public func text(_ language: AppLanguage) -> String {
        let ja = language == .ja
        var lines = ja ? [
            "ミラーリング: 送信 \(mirrorSent)（\(WatchFormat.grouped(mirrorBytes)) B）、スキップ \(mirrorSkipped)"
                + (lastSkipReason.map { " — 最後の理由: \($0)" } ?? ""),
            "メッセージ: 送信 \(messagesSent)、失敗 \(messagesFailed)、受信 \(messagesReceived)",
            "ファイル: 送信 \(filesSent)、配信 \(filesDelivered)、失敗 \(filesFailed)",
            "リンクエラー: \(linkErrors)" + (lastLinkError.map { " — 最後: \($0)" } ?? ""),
        ] : [
            "mirror: \(mirrorSent) sent (\(WatchFormat.grouped(mirrorBytes)) B), \(mirrorSkipped) skipped"
                + (lastSkipReason.map { " — last: \($0)" } ?? ""),
            "messages: \(messagesSent) sent, \(messagesFailed) failed, \(messagesReceived) received",
            "files: \(filesSent) sent, \(filesDelivered) delivered, \(filesFailed) failed",
            "link errors: \(linkErrors)" + (lastLinkError.map { " — last: \($0)" } ?? ""),
        ]
        lines += recent.suffix(5).map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
