import Shared

/// How the message timelines (the simulated network's and the fault proxy's) name the frames
/// they carry: the kind, and for a frame of a numbered transfer which one, so a reader can
/// follow one transfer through drops and retries:
/// `userInfo u7`, `context v3`, `fileOffer f2`, `fileChunk f2@262144`, `fileEnd f2`,
/// `message m12` (also `messageReply`, `messageError`). A transfer frame sent again in the same
/// direction (after a drop, a reconnect or a restart) is marked ` retry`.
public struct FrameLabeler: Sendable {
    /// Transfer frames seen so far, as `direction label`.
    var sent: Set<String> = []

    public init() {}

    /// The label of the frame in `bytes` (header included) and whether sending it again is a
    /// retry; `bytes` when it is not a whole frame of a known kind.
    public static func label(_ bytes: [UInt8]) -> (label: String, isTransfer: Bool) {
        guard bytes.count >= FrameHeader.size, let k = FrameKind(rawValue: bytes[3]) else { return ("bytes", false) }
        let kind = k.description
        var r = ByteReader(bytes, offset: FrameHeader.size)
        guard bytes.count > FrameHeader.size, let first = try? r.readVarint() else { return (kind, false) }
        switch k {
        case .userInfo: return ("\(kind) u\(first)", true)
        case .userInfoCancel, .userInfoCancelReply: return ("\(kind) u\(first)", false)
        case .context: return ("\(kind) v\(first)", true)
        case .fileOffer, .fileEnd: return ("\(kind) f\(first)", true)
        case .fileChunk:
            guard let offset = try? r.readVarint() else { return (kind, false) }
            return ("\(kind) f\(first)@\(offset)", true)
        case .message, .messageReply, .messageError: return ("\(kind) m\(first)", false)
        default: return (kind, false)
        }
    }

    /// The label of a frame being sent in `direction`, with ` retry` when that transfer frame
    /// was sent in that direction before.
    public mutating func label(sending bytes: [UInt8], direction: String) -> String {
        let (label, isTransfer) = Self.label(bytes)
        guard isTransfer else { return label }
        return sent.insert("\(direction) \(label)").inserted ? label : label + " retry"
    }
}
