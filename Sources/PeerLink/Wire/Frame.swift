import Shared

/// The kinds of frame PeerLink sends. docs/PROTOCOL.md describes each body byte by byte.
public enum FrameKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    // MARK: Handshake
    /// Connector → listener: role, protocol version, nonce.
    case hello = 0x01
    /// Listener → connector: role, version, nonce, proof of the pairing secret.
    case helloReply = 0x02
    /// Connector → listener: proof of the pairing secret, session state.
    case auth = 0x03
    /// Listener → connector: session state; the link is up.
    case ready = 0x04
    /// Either side: the connection is refused, with a reason; then closed.
    case reject = 0x05

    // MARK: Liveness
    case ping = 0x06
    case pong = 0x07
    /// Either side: app state that decides reachability (foreground, workout running…).
    case appState = 0x08

    // MARK: Channels
    /// A guaranteed user-info transfer (also complication user info).
    case userInfo = 0x10
    /// The receiver committed a user-info transfer.
    case userInfoAck = 0x11
    /// The sender cancelled a user-info transfer whose frame went out: was it delivered?
    case userInfoCancel = 0x12
    /// The receiver's answer: delivered before the cancel arrived, or now never delivered.
    case userInfoCancelReply = 0x13
    /// A live message (dictionary or data), optionally expecting a reply.
    case message = 0x20
    /// The reply to a message.
    case messageReply = 0x21
    /// A message could not be delivered or answered.
    case messageError = 0x22
    /// The newest application context.
    case context = 0x30
    /// The receiver stored that context.
    case contextAck = 0x31
    /// Start (or resume) a file transfer: number, size, name, metadata.
    case fileOffer = 0x40
    /// The receiver's answer: the offset to resume from.
    case fileResume = 0x41
    /// A chunk of file content at an offset.
    case fileChunk = 0x42
    /// The receiver verified and delivered the file (or rejected it).
    case fileAck = 0x43
    /// The sender cancelled a file transfer.
    case fileCancel = 0x44
    /// The sender sent the whole file: its SHA-256 (hashed while it was sent).
    case fileEnd = 0x45

    public var description: String {
        switch self {
        case .hello: "hello"
        case .helloReply: "helloReply"
        case .auth: "auth"
        case .ready: "ready"
        case .reject: "reject"
        case .ping: "ping"
        case .pong: "pong"
        case .appState: "appState"
        case .userInfo: "userInfo"
        case .userInfoAck: "userInfoAck"
        case .userInfoCancel: "userInfoCancel"
        case .userInfoCancelReply: "userInfoCancelReply"
        case .message: "message"
        case .messageReply: "messageReply"
        case .messageError: "messageError"
        case .context: "context"
        case .contextAck: "contextAck"
        case .fileOffer: "fileOffer"
        case .fileResume: "fileResume"
        case .fileChunk: "fileChunk"
        case .fileAck: "fileAck"
        case .fileCancel: "fileCancel"
        case .fileEnd: "fileEnd"
        }
    }

    /// True for the frames allowed before the handshake completes.
    public var isHandshake: Bool { rawValue <= 0x05 }
}

/// One frame: a kind and its body.
public struct Frame: Sendable, Equatable {
    public var kind: FrameKind
    public var body: [UInt8]

    public init(_ kind: FrameKind, _ body: [UInt8] = []) {
        self.kind = kind
        self.body = body
    }
}

/// The fixed frame header and its limits.
///
/// ```
/// offset size  field
/// 0      2     magic "PL" (0x50 0x4C)
/// 2      1     protocol version (1)
/// 3      1     frame kind (FrameKind)
/// 4      4     body length, unsigned big-endian, at most maxBodyBytes
/// 8      n     body
/// ```
public enum FrameHeader {
    public static let magic: (UInt8, UInt8) = (0x50, 0x4C)
    public static let version: UInt8 = 1
    public static let size = 8
    /// The largest body accepted: a file chunk (256 KiB) with its header, and headroom.
    public static let maxBodyBytes = 1 << 20
}

/// Writes frames.
public enum FrameEncoder {
    /// The frame's bytes: header then body.
    public static func encode(_ frame: Frame) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(FrameHeader.size + frame.body.count)
        append(frame, to: &out)
        return out
    }

    /// Appends the frame's bytes to `out`.
    public static func append(_ frame: Frame, to out: inout [UInt8]) {
        appendHeader(kind: frame.kind, bodyCount: frame.body.count, to: &out)
        out.append(contentsOf: frame.body)
    }

    /// Appends the header of a frame whose body of `bodyCount` bytes the caller appends next
    /// (a file chunk read straight into the frame's buffer).
    public static func appendHeader(kind: FrameKind, bodyCount: Int, to out: inout [UInt8]) {
        precondition(bodyCount <= FrameHeader.maxBodyBytes, "frame body over maxBodyBytes: \(bodyCount)")
        let n = UInt32(bodyCount)
        out.append(contentsOf: [FrameHeader.magic.0, FrameHeader.magic.1, FrameHeader.version, kind.rawValue,
                                UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)])
    }
}
