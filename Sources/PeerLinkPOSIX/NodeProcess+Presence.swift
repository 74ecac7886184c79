#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// What the person at a node's prompt was last told about its peer.
enum PeerPresence: Sendable, Equatable {
    /// Nothing said yet.
    case starting
    /// Told that the node waits for its peer (listening, or trying to connect).
    case waiting
    case connected
    /// Told that the link was lost and the node is trying again.
    case lost
}

/// The lines a node says to the person at its prompt (on stderr, in the node's language): once
/// when it starts waiting for its peer, once when it connects, once when it loses the link —
/// never one per reconnect attempt.
enum NodeNotice {
    case listening(String)
    case connecting(String)
    case connected(DeviceRole)
    case lost(DeviceRole)

    var text: LocalizedText {
        switch self {
        case .listening(let address): L10n.shellListening(address)
        case .connecting(let address): L10n.shellWaitingForPhone(address)
        case .connected(let peer): L10n.shellConnected(peer)
        case .lost(let peer): L10n.shellLost(peer)
        }
    }
}

extension NodeProcess {
    /// Tells the person at the prompt what changed about the peer since the last notice.
    func notePresence() {
        let connected = engine.isConnected
        let peer = options.role.peer
        switch (presence, connected) {
        case (.connected, false):
            presence = .lost
            tell(.lost(peer))
        case (.starting, true), (.waiting, true), (.lost, true):
            presence = .connected
            tell(.connected(peer))
        default:
            break
        }
    }

    /// A connection attempt failed: the first one since starting is worth one line.
    func noteConnectFailed() {
        guard presence == .starting, let target = options.connect else { return }
        presence = .waiting
        tell(.connecting(target.description))
    }

    func tell(_ notice: NodeNotice) {
        log(.info, "notice: \(notice.text.en)")
        guard standardErrorLevel != nil else { return }
        let bytes = Array((notice.text(engine.ctx.language) + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
