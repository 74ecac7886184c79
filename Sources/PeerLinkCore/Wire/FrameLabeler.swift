
/// What a frame was, in the few numbers its timeline label needs: its kind and the first
/// two varints of its body (the transfer's number, a chunk's offset). The engine makes one
/// for each frame it sends when asked (`NodeEngine.summarizesFrames`): the bytes on the
/// wire are sealed, so the simulator cannot read them.
public struct FrameSummary: Sendable, Equatable {
    public var kind: FrameKind
    public var first: UInt64?
    public var second: UInt64?

    public init(kind: FrameKind, first: UInt64? = nil, second: UInt64? = nil) {
        self.kind = kind
        self.first = first
        self.second = second
    }

    /// The summary of a frame of `kind` with `body`.
    public init(kind: FrameKind, body: [UInt8]) {
        self.kind = kind
        var r = ByteReader(body)
        first = body.isEmpty ? nil : try? r.readVarint()
        second = first == nil ? nil : try? r.readVarint()
    }

    public init(_ frame: Frame) { self.init(kind: frame.kind, body: frame.body) }
}

/// How the message timelines name the frames they carry: the kind, and for a frame of a
/// numbered transfer which one, so a reader can follow one transfer through drops and retries:
/// `userInfo u7`, `context v3`, `fileOffer f2`, `fileChunk f2@262144`, `fileEnd f2`,
/// `message m12` (also `messageReply`, `messageError`). A transfer frame sent again in the same
/// direction (after a drop, a reconnect or a restart) is marked ` retry`.
///
/// The simulated network labels from the sender's `FrameSummary`. The fault proxy of process
/// mode sits on the wire and sees sealed records only: it names their type (`label(record:)`).
public struct FrameLabeler: Sendable {
    /// Transfer frames seen so far, as `direction label`.
    var sent: Set<String> = []

    public init() {}

    /// The label of a frame and whether sending it again is a retry.
    public static func label(_ s: FrameSummary) -> (label: String, isTransfer: Bool) {
        let kind = s.kind.description
        guard let first = s.first else { return (kind, false) }
        switch s.kind {
        case .userInfo: return (numbered(kind, "u", first), true)
        case .userInfoCancel, .userInfoCancelReply: return (numbered(kind, "u", first), false)
        case .context: return (numbered(kind, "v", first), true)
        case .fileOffer, .fileEnd: return (numbered(kind, "f", first), true)
        case .fileChunk:
            guard let offset = s.second else { return (kind, false) }
            return (numbered(kind, "f", first, at: offset), true)
        case .message, .messageReply, .messageError: return (numbered(kind, "m", first), false)
        default: return (kind, false)
        }
    }

    /// `"\(kind) \(tag)\(number)"`, or `"\(kind) \(tag)\(number)@\(offset)"`, written into a
    /// string of exactly its length (a label of up to 15 bytes is then stored inline): built by
    /// interpolation it was most of labelling a frame, on every frame a traced run carries.
    static func numbered(_ kind: String, _ tag: Unicode.Scalar, _ number: UInt64, at offset: UInt64? = nil) -> String {
        let length = kind.utf8.count + 2 + DecimalDigits.count(number) + (offset.map { 1 + DecimalDigits.count($0) } ?? 0)
        return String(unsafeUninitializedCapacity: length) { out in
            var p = PointerText.put(kind, at: out.baseAddress!)
            p[0] = UInt8(ascii: " ")
            p[1] = UInt8(ascii: tag)
            p = DecimalDigits.write(number, to: p + 2)
            if let offset {
                p.pointee = UInt8(ascii: "@")
                p = DecimalDigits.write(offset, to: p + 1)
            }
            return p - out.baseAddress!
        }
    }

    /// The label of a frame being sent in `direction`, with ` retry` when that transfer frame
    /// was sent in that direction before.
    public mutating func label(sending s: FrameSummary, direction: String) -> String {
        let (label, isTransfer) = Self.label(s)
        guard isTransfer else { return label }
        return sent.insert("\(direction) \(label)").inserted ? label : label + " retry"
    }

    /// What a relay can say of a record it forwards: its type (`sealed`, `hello`…), or
    /// `bytes` when it is not a whole record.
    public static func label(record bytes: [UInt8]) -> String {
        guard bytes.count >= RecordHeader.size, let t = RecordType(rawValue: bytes[3]) else { return "bytes" }
        return t.description
    }
}
