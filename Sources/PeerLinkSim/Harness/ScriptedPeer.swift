import PeerLinkCore

/// The other side of a `NodeHarness`: a node whose app only records what it receives and
/// answers messages, and whose link calls the test makes (`NodeHarness.peer(_:)`). Its
/// replica has the schema of `Counterpart`, the app under test (both sides must declare the
/// same), and merges what that app writes like a real peer.
public struct ScriptedPeer<Counterpart: NodeApp>: NodeApp {
    public static var replicaSchema: ReplicaSchema { Counterpart.replicaSchema }

    /// Every link event the peer received, oldest first (messages, user info, contexts,
    /// files with their contents, finished transfers, reachability…).
    public internal(set) var received: [LinkEvent] = []
    /// What the peer answers a message that expects a reply (nil: it never answers).
    public var reply: MessagePayload?

    /// A peer that answers messages with `reply`.
    public init(reply: MessagePayload? = .dictionary(["ok": true])) { self.reply = reply }

    /// Files come with their contents.
    public static var receivedFileReadLimit: Int64 { 64 << 20 }

    public mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        received.append(event)
        if case .didReceiveMessage(let m) = event, m.replyExpected, let reply {
            _ = ctx.replyToMessage(m.id, with: reply)
        }
    }

    /// The peer takes no commands: the test makes its calls (`NodeHarness.peer(_:)`).
    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        .error("the scripted peer takes no commands")
    }

    public func isOwnTraffic(_ event: LinkEvent, _ ctx: NodeContext) -> Bool { true }

    /// The user infos received (without the replica's own deltas).
    public var userInfos: [PlistValue] {
        received.compactMap { e in
            guard case .didReceiveUserInfo(let v, _) = e, v[NodeContext.replicaSyncKey] == nil else { return nil }
            return v
        }
    }

    /// The messages received.
    public var messages: [MessagePayload] {
        received.compactMap { if case .didReceiveMessage(let m) = $0 { m.payload } else { nil } }
    }

    /// The application contexts received, oldest first.
    public var contexts: [PlistValue] {
        received.compactMap { if case .didReceiveApplicationContext(let v) = $0 { v } else { nil } }
    }

    /// The files received.
    public var files: [ReceivedFile] {
        received.compactMap { if case .didReceiveFile(let f) = $0 { f } else { nil } }
    }
}
