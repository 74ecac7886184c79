
/// The file-transfer frame bodies.
extension FrameBodies {
    /// The largest file chunk (content bytes in one `fileChunk`).
    public static let maxFileChunkBytes = 256 * 1024

    /// `fileOffer`: varint number, varint sizeBytes, string name, u8 hasMetadata (0/1), then
    /// the canonical metadata (to the end) when present.
    public struct FileOffer: Sendable, Equatable {
        public var number: UInt64
        public var sizeBytes: Int64
        public var name: String
        public var metadata: PlistValue?

        public func encode() -> [UInt8] {
            var w = ByteWriter(capacity: 64 + name.utf8.count)
            w.writeVarint(number); w.writeVarint(UInt64(sizeBytes)); w.writeString(name)
            if let m = metadata { w.writeByte(1); CanonicalEncoding.encode(m, into: &w) } else { w.writeByte(0) }
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> FileOffer {
            var r = ByteReader(body)
            let number = try r.readVarint(), size = try r.readVarint()
            guard size <= UInt64(Int64.max) else { throw .malformed("file size \(size)") }
            let name = try r.readString()
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { throw .malformed("file name '\(name)'") }
            let has = try r.readByte()
            var meta: PlistValue? = nil
            switch has {
            case 0: try end(r)
            case 1: meta = try CanonicalEncoding.decode(Array(body[r.offset...]))
            default: throw .malformed("fileOffer metadata flag \(has)")
            }
            return FileOffer(number: number, sizeBytes: Int64(size), name: name, metadata: meta)
        }
    }

    /// `fileEnd`: varint number, 32-byte SHA-256 of the whole file.
    public enum FileEnd {
        public static func encode(number: UInt64, sha256: [UInt8]) -> [UInt8] {
            var w = ByteWriter(capacity: 42)
            w.writeVarint(number); w.writeBytes(sha256)
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> (number: UInt64, sha256: [UInt8]) {
            var r = ByteReader(body)
            let n = try r.readVarint(), sha = Array(try r.readBytes(32))
            try end(r)
            return (n, sha)
        }
    }

    /// `fileChunk`: varint number, varint offset, content bytes (to the end, at most
    /// `maxFileChunkBytes`).
    public enum FileChunk {
        /// The bytes before the content.
        public static func header(number: UInt64, offset: Int64) -> [UInt8] {
            encodeVarints(number, UInt64(offset))
        }

        /// Number, offset and where the content starts in `body`.
        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> (number: UInt64, offset: Int64, contentStart: Int) {
            var r = ByteReader(body)
            let number = try r.readVarint(), offset = try r.readVarint()
            guard offset <= UInt64(Int64.max) else { throw .malformed("chunk offset \(offset)") }
            guard r.remaining <= maxFileChunkBytes else { throw .malformed("chunk of \(r.remaining) bytes over \(maxFileChunkBytes)") }
            return (number, Int64(offset), r.offset)
        }
    }

    /// `fileAck`: varint number, u8 status, then for status 0 (progress) varint offset, for
    /// 1 (delivered) nothing, for 2 (failed) varint WCErrorDomain code and string reason, for
    /// 3 (cancelled: the answer to a `fileCancel` of a file not delivered) nothing.
    public enum FileAck: Sendable, Equatable {
        case progress(number: UInt64, offset: Int64)
        case delivered(number: UInt64)
        case failed(number: UInt64, WCError)
        /// The answer to a `fileCancel` of a file not delivered: it never will be.
        case cancelled(number: UInt64)

        public var number: UInt64 {
            switch self {
            case .progress(let n, _), .delivered(let n), .failed(let n, _), .cancelled(let n): n
            }
        }

        public func encode() -> [UInt8] {
            var w = ByteWriter(capacity: 24)
            w.writeVarint(number)
            switch self {
            case .progress(_, let off): w.writeByte(0); w.writeVarint(UInt64(off))
            case .delivered: w.writeByte(1)
            case .failed(_, let e): w.writeByte(2); w.writeVarint(UInt64(e.code.rawValue)); w.writeString(e.reason)
            case .cancelled: w.writeByte(3)
            }
            return w.bytes
        }

        public static func decode(_ body: [UInt8]) throws(ByteReaderError) -> FileAck {
            var r = ByteReader(body)
            let number = try r.readVarint()
            let ack: FileAck
            switch try r.readByte() {
            case 0:
                let off = try r.readVarint()
                guard off <= UInt64(Int64.max) else { throw .malformed("ack offset \(off)") }
                ack = .progress(number: number, offset: Int64(off))
            case 1: ack = .delivered(number: number)
            case 2:
                let raw = try r.readVarint()
                guard raw < 100_000, let code = WCErrorCode(rawValue: Int(raw)) else { throw .malformed("unknown error code \(raw)") }
                ack = .failed(number: number, WCError(code, try r.readString()))
            case 3: ack = .cancelled(number: number)
            case let s: throw .malformed("fileAck status \(s)")
            }
            try end(r)
            return ack
        }
    }
}
