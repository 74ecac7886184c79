
/// What a node tells the person at its prompt outside a command's reply, and the link errors
/// it keeps for `link`.
extension NodeContext {
    /// The most link errors `recentLinkErrors` keeps.
    public static let maxRecentLinkErrors = 10

    /// A line for the person at the prompt (the shell prints it after the current event): a
    /// reply that came later, a finished transfer, a payload the peer sent by hand. In the
    /// device's language; never a log line.
    public mutating func notify(_ text: String) {
        notices.append(text)
    }

    /// Remembers a WatchConnectivity error for `link` (the latest `maxRecentLinkErrors`).
    /// `subject` names what failed: `m3` (a message), `u7` (user info), `f2` (a file), `context`.
    public mutating func noteLinkError(_ error: WCError, subject: String) {
        recentLinkErrors.append(LinkErrorNote(atMs: now, code: error.code, subject: subject))
        if recentLinkErrors.count > Self.maxRecentLinkErrors {
            recentLinkErrors.removeFirst(recentLinkErrors.count - Self.maxRecentLinkErrors)
        }
    }

    // MARK: - Transfers sent by hand

    /// Marks a transfer as sent by hand: its outcome goes to the prompt, not to the app.
    mutating func markHandTransfer(_ id: String) {
        handTransfers.insert(id)
        batch.put(Self.handTable, Array(id.utf8), [])
    }

    /// True (and forgotten) when `id` was sent by hand.
    mutating func takeHandTransfer(_ id: String) -> Bool {
        guard handTransfers.remove(id) != nil else { return false }
        batch.delete(Self.handTable, Array(id.utf8))
        return true
    }
}

/// A WatchConnectivity error the node saw: when, which code, and on what.
public struct LinkErrorNote: Sendable, Equatable {
    /// The device's wall time when the error was reported.
    public var atMs: EpochMs
    public var code: WCErrorCode
    /// What failed: `m3` (a message), `u7` (user info), `f2` (a file), `context`, `complication`.
    public var subject: String

    /// As JSON: `{"at": ms, "code": 7007, "name": "notReachable", "subject": "m3"}`.
    public var plistValue: PlistValue {
        ["at": .int(atMs), "code": .int(Int64(code.rawValue)), "name": .string(code.name), "subject": .string(subject)]
    }
}
