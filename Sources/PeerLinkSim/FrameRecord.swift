import PeerLinkCore

/// One frame on the link as the run report draws it: who sent it and when, when it arrived
/// (none when dropped, two when duplicated), its label (`userInfo u7`, `fileChunk f2@262144`,
/// ` retry` appended when sent again), its size and its fate. Recorded beside the timeline's
/// text line of the same frame, one record per line, so the two always count the same frames.
public struct FrameRecord: Sendable, Equatable {
    public var sentMs: EpochMs
    public var from: DeviceRole
    public var label: String
    public var bytes: Int
    public var fate: FrameFate
    /// Delivery times of the frame's last byte, earliest first.
    public var arrivalsMs: [EpochMs]

    public init(sentMs: EpochMs, from: DeviceRole, label: String, bytes: Int, fate: FrameFate, arrivalsMs: [EpochMs]) {
        self.sentMs = sentMs
        self.from = from
        self.label = label
        self.bytes = bytes
        self.fate = fate
        self.arrivalsMs = arrivalsMs
    }

    /// True when the label marks a transfer frame sent again (after a drop, reconnect or restart).
    public var isRetry: Bool { label.hasSuffix(" retry") }
}
