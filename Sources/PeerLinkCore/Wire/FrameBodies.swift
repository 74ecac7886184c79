
/// The bodies of the channel frames, one type per kind, each with its byte layout.
/// docs/PROTOCOL.md is the prose version of these definitions.
///
/// Every decoder reads the whole body: trailing bytes, a truncated field or an unknown flag
/// is `ByteReaderError` (the connection is then closed as malformed).
public enum FrameBodies {}

extension FrameBodies {
    /// `userInfo`: varint seq, varint prev, u8 flags, canonical payload (to the end).
    /// Flags: bit 0 = complication stream, bit 1 = tagged current complication info.
    public struct UserInfo: Sendable, Equatable {
        public var seq: UInt64
        public var prev: UInt64
        public var isComplicationStream: Bool
        public var isCurrent: Bool
        /// The canonical encoding of the payload.
        public var payload: [UInt8]

        public func encode() -> [UInt8] {
            var w = ByteWriter(capacity: payload.count + 12)
            w.writeVarint(seq); w.writeVarint(prev)
            w.writeByte((isComplicationStream ? 1 : 0) | (isCurrent ? 2 : 0))
            w.writeBytes(payload)
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> UserInfo {
            var r = ByteReader(body)
            let seq = try r.readVarint(), prev = try r.readVarint(), flags = try r.readByte()
            guard flags & ~3 == 0 else { throw .malformed("userInfo flags 0x\(String(flags, radix: 16))") }
            guard seq > prev else { throw .malformed("userInfo seq \(seq) not after prev \(prev)") }
            return UserInfo(seq: seq, prev: prev, isComplicationStream: flags & 1 != 0, isCurrent: flags & 2 != 0,
                            payload: Array(body[r.offset...]))
        }
    }

    /// `userInfoAck`: varint lastDelivered (ordinary stream), varint lastDelivered (complication stream).
    public struct UserInfoAck: Sendable, Equatable {
        public var ordinary: UInt64
        public var complication: UInt64

        public func encode() -> [UInt8] {
            var w = ByteWriter(capacity: 20)
            w.writeVarint(ordinary); w.writeVarint(complication)
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> UserInfoAck {
            var r = ByteReader(body)
            let a = UserInfoAck(ordinary: try r.readVarint(), complication: try r.readVarint())
            try end(r)
            return a
        }
    }

    /// `userInfoCancel` and `userInfoCancelReply`: varint seq, u8 flags.
    /// Flags: bit 0 = complication stream, bit 1 = the receiver had delivered it
    /// (`userInfoCancelReply` only: then the cancel came too late).
    public struct UserInfoCancel: Sendable, Equatable {
        public var seq: UInt64
        public var isComplicationStream: Bool
        public var wasDelivered: Bool

        public init(seq: UInt64, isComplicationStream: Bool, wasDelivered: Bool = false) {
            self.seq = seq
            self.isComplicationStream = isComplicationStream
            self.wasDelivered = wasDelivered
        }

        public func encode() -> [UInt8] {
            var w = ByteWriter(capacity: 11)
            w.writeVarint(seq)
            w.writeByte((isComplicationStream ? 1 : 0) | (wasDelivered ? 2 : 0))
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> UserInfoCancel {
            var r = ByteReader(body)
            let seq = try r.readVarint(), flags = try r.readByte()
            try end(r)
            guard flags & ~3 == 0 else { throw .malformed("userInfoCancel flags 0x\(String(flags, radix: 16))") }
            guard seq > 0 else { throw .malformed("userInfoCancel of seq 0") }
            return UserInfoCancel(seq: seq, isComplicationStream: flags & 1 != 0, wasDelivered: flags & 2 != 0)
        }
    }

    /// `message` and `messageReply`: varint id, u8 flags, payload (to the end).
    /// Flags: bit 0 = payload is data (else a canonical dictionary), bit 1 = reply expected
    /// (`message` only), bit 2 = delivery receipt without payload (`messageReply` only).
    public struct Message: Sendable, Equatable {
        public var id: MessageID
        public var payload: MessagePayload?
        public var replyExpected: Bool

        public init(id: MessageID, payload: MessagePayload?, replyExpected: Bool) {
            self.id = id
            self.payload = payload
            self.replyExpected = replyExpected
        }

        public func encode() -> [UInt8] {
            switch payload {
            case .data(let d)?:
                return Self.encode(id: id, flags: 1 | (replyExpected ? 2 : 0), tail: d)
            case .dictionary(let dict)?:
                var w = ByteWriter(capacity: 64)
                w.writeVarint(id)
                w.writeByte(replyExpected ? 2 : 0)
                CanonicalEncoding.encode(.dictionary(dict), into: &w)
                return w.bytes
            case nil:
                return Self.encode(id: id, flags: 4, tail: [])
            }
        }

        /// The body of a `message` with a dictionary payload whose canonical encoding is
        /// `canonical`: `Message(id: id, payload: .dictionary(d), replyExpected:).encode()`
        /// when `canonical` is `CanonicalEncoding.encode(.dictionary(d))` (the caller's
        /// promise), without encoding the dictionary again: the header, then the bytes as they are.
        public static func encode(id: MessageID, replyExpected: Bool, canonicalDictionary canonical: [UInt8]) -> [UInt8] {
            encode(id: id, flags: replyExpected ? 2 : 0, tail: canonical)
        }

        /// The header (id, flags), then `tail` as it is, written straight into the body's array
        /// (a data payload too: through a `ByteWriter`, its bytes were copied twice).
        static func encode(id: MessageID, flags: UInt8, tail: [UInt8]) -> [UInt8] {
            let size = CanonicalEncoding.varintSize(id) + 1 + tail.count
            return [UInt8](smallUninitializedCapacity: size) { buffer, initialized in
                var i = ByteWriter.storeVarint(id, at: buffer.baseAddress!)
                buffer[i] = flags
                i += 1
                tail.withUnsafeBufferPointer { src in
                    guard let s = src.baseAddress, src.count > 0 else { return }
                    (buffer.baseAddress! + i).initialize(from: s, count: src.count)
                }
                initialized = size
            }
        }

        /// The canonical size of `payload` (`CanonicalEncoding.encodedSize`, which the payload
        /// limit measures), given `body`, its message's `encode()` with `id`: a dictionary's
        /// canonical form is the body's tail, read off its length instead of counted again.
        public static func payloadSize(inEncoded body: [UInt8], id: MessageID, payload: MessagePayload) -> Int {
            switch payload {
            case .dictionary: body.count - CanonicalEncoding.varintSize(id) - 1
            case .data(let b): CanonicalEncoding.encodedSize(.data(b))
            }
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> Message {
            var r = ByteReader(body)
            let (id, flags) = try header(&r)
            if let m = try withoutDictionary(id, flags, &r) { return m }
            // Decoded in place, after the header: not copied out first.
            return try withDictionary(id, flags, try CanonicalEncoding.decode(from: &r), r)
        }

        /// `decode(_:)`, reusing the dictionary decoded last (`CanonicalEncoding.DictionaryShape`)
        /// when this one's keys are the same, and leaving this one's in `shape`.
        static func decode(_ body: [UInt8], reusing shape: inout CanonicalEncoding.DictionaryShape?) throws(ByteReaderError) -> Message {
            var r = ByteReader(body)
            let (id, flags) = try header(&r)
            if let m = try withoutDictionary(id, flags, &r) { return m }
            return try withDictionary(id, flags, try CanonicalEncoding.decode(from: &r, reusing: &shape), r)
        }

        private static func header(_ r: inout ByteReader) throws(ByteReaderError) -> (MessageID, UInt8) {
            let id = try r.readVarint(), flags = try r.readByte()
            guard flags & ~7 == 0 else { throw .malformed("message flags 0x\(String(flags, radix: 16))") }
            return (id, flags)
        }

        /// A receipt, or a message of data; nil for a dictionary (at `r`).
        private static func withoutDictionary(_ id: MessageID, _ flags: UInt8, _ r: inout ByteReader) throws(ByteReaderError) -> Message? {
            if flags & 4 != 0 {
                guard r.isAtEnd, flags == 4 else { throw .malformed("a receipt carries no payload") }
                return Message(id: id, payload: nil, replyExpected: false)
            }
            if flags & 1 != 0 { return Message(id: id, payload: .data(Array(r.bytes[r.offset...])), replyExpected: flags & 2 != 0) }
            return nil
        }

        /// The message of `value`, the payload that ended at `r`.
        private static func withDictionary(_ id: MessageID, _ flags: UInt8, _ value: PlistValue, _ r: ByteReader) throws(ByteReaderError) -> Message {
            guard r.isAtEnd else { throw .malformed("\(r.remaining) trailing bytes") }
            guard case .dictionary(let d) = value else { throw .malformed("message payload is not a dictionary") }
            return Message(id: id, payload: .dictionary(d), replyExpected: flags & 2 != 0)
        }
    }

    /// `messageError`: varint id, varint WCErrorDomain code, string reason.
    public struct MessageError: Sendable, Equatable {
        public var id: MessageID
        public var error: WCError

        public func encode() -> [UInt8] {
            var w = ByteWriter(capacity: 32)
            w.writeVarint(id); w.writeVarint(UInt64(error.code.rawValue)); w.writeString(error.reason)
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> MessageError {
            var r = ByteReader(body)
            let id = try r.readVarint(), raw = try r.readVarint()
            guard raw < 100_000, let code = WCErrorCode(rawValue: Int(raw)) else { throw .malformed("unknown error code \(raw)") }
            let m = MessageError(id: id, error: WCError(code, try r.readString()))
            try end(r)
            return m
        }
    }

    /// `context`: varint version, canonical payload (to the end). `contextAck`: varint version.
    public struct Context: Sendable, Equatable {
        public var version: UInt64
        public var payload: [UInt8]

        public func encode() -> [UInt8] {
            var w = ByteWriter(capacity: payload.count + 10)
            w.writeVarint(version); w.writeBytes(payload)
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> Context {
            var r = ByteReader(body)
            let v = try r.readVarint()
            return Context(version: v, payload: Array(body[r.offset...]))
        }
    }

    /// A body that is exactly one varint (`contextAck`, `fileCancel`).
    public static func encodeVarint(_ v: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 10)
        w.writeVarint(v)
        return w.bytes
    }

    /// Reads a body that is exactly one varint.
    public static func decodeVarint(_ body: [UInt8]) throws(ByteReaderError) -> UInt64 {
        var r = ByteReader(body)
        let v = try r.readVarint()
        try end(r)
        return v
    }

    /// Two varints (`fileResume`: number, offset).
    public static func encodeVarints(_ a: UInt64, _ b: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 20)
        w.writeVarint(a); w.writeVarint(b)
        return w.bytes
    }

    /// Reads a body that is exactly two varints.
    public static func decodeVarints(_ body: [UInt8]) throws(ByteReaderError) -> (UInt64, UInt64) {
        var r = ByteReader(body)
        let a = try r.readVarint(), b = try r.readVarint()
        try end(r)
        return (a, b)
    }

    static func end(_ r: ByteReader) throws(ByteReaderError) {
        guard r.isAtEnd else { throw .malformed("\(r.remaining) trailing bytes") }
    }
}
