
/// The kinds of frame PeerLink sends. docs/PROTOCOL.md describes each body byte by byte.
public enum FrameKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    // MARK: Handshake
    /// Connector → listener: the first Noise handshake message (a plaintext record).
    case hello = 0x01
    /// Listener → connector: the second Noise handshake message (a plaintext record).
    case helloReply = 0x02
    /// Connector → listener, sealed: the connector's session state (it proves the keys).
    case auth = 0x03
    /// Listener → connector, sealed: the listener's session state; the link is up.
    case ready = 0x04
    /// Either side: the connection is refused or closed, with a reason (a plaintext record
    /// before the sender has keys, sealed after).
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

    /// True for the frames of the handshake.
    public var isHandshake: Bool { rawValue <= 0x05 }

    /// The plaintext record type a frame of this kind goes in before keys are in place
    /// (only the Noise messages and a refusal can); nil for the others.
    public var plaintextRecordType: RecordType? {
        switch self {
        case .hello: .hello
        case .helloReply: .helloReply
        case .reject: .reject
        default: nil
        }
    }
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

extension Frame {
    /// The largest frame body (a file chunk of 256 KiB with its header, an application
    /// context of 256 KiB, and headroom). A frame larger than a record is carried by several
    /// sealed records (`SecureChannel`); the receiver refuses one that grows past this.
    public static let maxBodyBytes = 1 << 20
}
