
/// What a record of protocol 2 carries (the byte after the version). docs/PROTOCOL.md § 1.
///
/// Before a side has keys only the Noise handshake messages and a refusal cross, in the
/// clear; from then on every record is `sealed` (a Noise transport message).
public enum RecordType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// The first Noise handshake message (watch → phone).
    case hello = 0x01
    /// The second Noise handshake message (phone → watch).
    case helloReply = 0x02
    /// A refusal with its reason, sent by a side that has no keys for the connection.
    case reject = 0x05
    /// A Noise transport message: ciphertext and tag of one fragment of a frame.
    case sealed = 0x80

    public var description: String {
        switch self {
        case .hello: "hello"
        case .helloReply: "helloReply"
        case .reject: "reject"
        case .sealed: "sealed"
        }
    }
}

/// The record header and its limits.
///
/// ```
/// offset size  field
/// 0      2     magic "PL" (0x50 0x4C)
/// 2      1     protocol version (2)
/// 3      1     record type (RecordType)
/// 4      2     body length, unsigned big-endian (at most 65,535: a Noise message)
/// 6      n     body
/// ```
public enum RecordHeader {
    public static let magic: (UInt8, UInt8) = (0x50, 0x4C)
    public static let version: UInt8 = 2
    public static let size = 6
    /// The largest body: the Noise framework's largest message.
    public static let maxBodyBytes = 65_535
}

/// One record: its type and body.
public struct Record: Sendable, Equatable {
    public var type: RecordType
    public var body: [UInt8]

    public init(_ type: RecordType, _ body: [UInt8]) {
        self.type = type
        self.body = body
    }
}

/// Which record types a connection accepts now, each with the largest body it may have (nil
/// refuses the type). The session sets them phase by phase, so that a record a phase does
/// not expect — or one larger than it can be — is refused from its header alone.
public struct RecordLimits: Sendable, Equatable {
    public var hello: Int?
    public var helloReply: Int?
    public var reject: Int?
    public var sealed: Int?

    public init(hello: Int? = nil, helloReply: Int? = nil, reject: Int? = nil, sealed: Int? = nil) {
        self.hello = hello
        self.helloReply = helloReply
        self.reject = reject
        self.sealed = sealed
    }

    /// Every type, at the largest size (a relay that only frames records).
    public static let any = RecordLimits(hello: RecordHeader.maxBodyBytes, helloReply: RecordHeader.maxBodyBytes,
                                         reject: RecordHeader.maxBodyBytes, sealed: RecordHeader.maxBodyBytes)

    /// The largest body of `type`; nil when it is refused.
    public func limit(_ type: RecordType) -> Int? {
        switch type {
        case .hello: hello
        case .helloReply: helloReply
        case .reject: reject
        case .sealed: sealed
        }
    }

    /// The accepted types, for error messages.
    var acceptedTypes: String {
        RecordType.allCases.filter { limit($0) != nil }.map(\.description).joined(separator: ", ")
    }
}

/// Writes plaintext records.
public enum RecordEncoder {
    /// The record's bytes: header then body.
    public static func encode(_ type: RecordType, _ body: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(RecordHeader.size + body.count)
        appendHeader(type, bodyCount: body.count, to: &out)
        out.append(contentsOf: body)
        return out
    }

    /// The record's bytes.
    public static func encode(_ record: Record) -> [UInt8] { encode(record.type, record.body) }

    /// Appends a record header for a body of `bodyCount` bytes.
    public static func appendHeader(_ type: RecordType, bodyCount: Int, to out: inout [UInt8]) {
        precondition(bodyCount <= RecordHeader.maxBodyBytes, "record body over \(RecordHeader.maxBodyBytes) bytes: \(bodyCount)")
        out.append(contentsOf: [RecordHeader.magic.0, RecordHeader.magic.1, RecordHeader.version, type.rawValue,
                                UInt8(bodyCount >> 8), UInt8(truncatingIfNeeded: bodyCount)])
    }
}

/// What the `tamper` fault does to a write on the link: one byte inside a record's body
/// flipped (never a header byte, so the stream still frames and the receiver must find the
/// change by the record's tag, not by a broken length).
public enum RecordTamper {
    /// `bytes` (whole records) with one body byte flipped, the byte and the bit chosen by
    /// `random`; unchanged when they hold no body byte.
    public static func flippingOneByte(_ bytes: [UInt8], random: UInt64) -> [UInt8] {
        var bodies: [Range<Int>] = []
        var at = 0
        while at + RecordHeader.size <= bytes.count {
            let length = Int(bytes[at + 4]) << 8 | Int(bytes[at + 5])
            let start = at + RecordHeader.size, end = min(bytes.count, start + length)
            if end > start { bodies.append(start..<end) }
            at = start + length
        }
        let total = bodies.reduce(0) { $0 + $1.count }
        guard total > 0 else { return bytes }
        var k = Int(random % UInt64(total))
        var out = bytes
        for r in bodies {
            if k < r.count {
                out[r.lowerBound + k] ^= UInt8(1) << UInt8((random >> 40) % 8)
                return out
            }
            k -= r.count
        }
        return out
    }
}
