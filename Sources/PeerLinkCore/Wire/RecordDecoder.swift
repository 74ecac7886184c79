
/// Why a byte stream is not a valid record sequence. Each closes the connection.
public enum RecordDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first two bytes of a header were not "PL".
    case badMagic(UInt8, UInt8)
    /// A protocol version this build does not speak.
    case unsupportedVersion(UInt8)
    /// A record type this build does not know.
    case unknownType(UInt8)
    /// A record type the connection does not accept in its current phase.
    case refused(RecordType, accepted: String)
    /// A body length over what the type may have now, refused before any allocation.
    case oversized(RecordType, length: Int, limit: Int)
    /// The stream ended in the middle of a record.
    case truncated(bufferedBytes: Int)
    /// The connection is being closed for a reason found above the records (a frame that
    /// failed to open, a protocol error): nothing more is taken from it.
    case closing(String)

    public var description: String {
        switch self {
        case .badMagic(let a, let b): "bad magic 0x\(String(a, radix: 16))\(String(b, radix: 16)) (expected 0x504c)"
        case .unsupportedVersion(let v): "unsupported protocol version \(v) (this node speaks \(RecordHeader.version))"
        case .unknownType(let t): "unknown record type 0x\(String(t, radix: 16))"
        case .refused(let t, let accepted): "a \(t) record is out of protocol order here (accepted now: \(accepted.isEmpty ? "none" : accepted))"
        case .oversized(let t, let n, let limit): "\(t) record of \(n) bytes over the limit of \(limit) bytes"
        case .truncated(let n): "connection closed in the middle of a record (\(n) bytes buffered)"
        case .closing(let reason): reason
        }
    }
}

/// A record as the decoder cuts it: its body is a slice of the bytes fed or of the decoder's
/// own buffer, valid until the decoder is fed or asked again.
public struct RecordView {
    public var type: RecordType
    public var body: ArraySlice<UInt8>
}

/// An incremental record decoder: feed it bytes as they arrive, take records as they complete.
///
/// It checks each header byte as it arrives against `limits`, so a record of a type the
/// connection does not accept now, or one longer than its type may be, is refused before its
/// body is buffered. After an error it stays failed. What it buffers is at most one record
/// (65,541 bytes).
///
/// Fed bytes are not copied on arrival: records that lie whole in them are cut straight out,
/// and only a record that runs past their end is gathered in the decoder's own buffer. Take
/// records with `next()` until it returns nil before the fed bytes' storage is written again.
public struct RecordDecoder: Sendable {
    /// A record under way: its first bytes, from `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes fed and not yet taken (after `buffer`'s).
    private var pending: ArraySlice<UInt8> = []
    public private(set) var failure: RecordDecodingError?
    /// What the connection accepts now (the engine sets it from the session before each record).
    public var limits: RecordLimits

    public init(limits: RecordLimits = .any) {
        self.limits = limits
    }

    /// Bytes received but not yet part of a returned record.
    public var bufferedByteCount: Int { buffer.count - start + pending.count }

    /// The length of the record under way once its header is in (nil before).
    public var announcedBodyBytes: Int? {
        let b = buffer.count - start > 0 ? buffer[start...] : pending
        guard b.count >= RecordHeader.size else { return nil }
        return Int(b[b.startIndex + 4]) << 8 | Int(b[b.startIndex + 5])
    }

    /// Adds received bytes (kept by reference until `next()` has taken what it can).
    public mutating func feed(_ bytes: ArraySlice<UInt8>) {
        guard failure == nil else { return }
        if !pending.isEmpty { buffer.append(contentsOf: pending) }
        pending = bytes
    }

    /// Adds received bytes.
    public mutating func feed(_ bytes: [UInt8]) { feed(bytes[...]) }

    /// The next complete record, nil when more bytes are needed; throws on a protocol violation.
    public mutating func nextView() throws(RecordDecodingError) -> RecordView? {
        if let failure { throw failure }
        do {
            if start == buffer.count {
                // Nothing under way: cut the record straight from the fed bytes.
                if start > 0 { buffer.removeAll(keepingCapacity: true); start = 0 }
                guard !pending.isEmpty else { return nil }
                if case .record(let type, let body) = try head(of: pending) {
                    let view = RecordView(type: type, body: pending[body])
                    take(upTo: body.upperBound)
                    return view
                }
                buffer.append(contentsOf: pending)
                pending = []
                return nil
            }
            // A record is under way in the buffer: move over only what it still needs.
            while true {
                switch try head(of: buffer[start...]) {
                case .record(let type, let body):
                    start = body.upperBound
                    return RecordView(type: type, body: buffer[body])
                case .needs(let total):
                    guard !pending.isEmpty else { return nil }
                    let n = min(total - (buffer.count - start), pending.count)
                    buffer.append(contentsOf: pending.prefix(n))
                    take(upTo: pending.startIndex + n)
                }
            }
        } catch {
            return try fail(error)
        }
    }

    /// The next complete record, its body copied out.
    public mutating func next() throws(RecordDecodingError) -> Record? {
        guard let v = try nextView() else { return nil }
        return Record(v.type, Array(v.body))
    }

    /// Drops the fed bytes before `index` (and the reference to their storage once all are taken).
    private mutating func take(upTo index: Int) {
        pending = index == pending.endIndex ? [] : pending[index...]
    }

    /// What the bytes at the head of a stream hold.
    private enum Head {
        /// A whole record, with where its body lies.
        case record(RecordType, body: Range<Int>)
        /// Not yet: the record needs this many bytes in all (the header's size while its length is not in).
        case needs(Int)
    }

    /// Checks the header as far as it has arrived.
    private func head(of b: ArraySlice<UInt8>) throws(RecordDecodingError) -> Head {
        let available = b.count, i = b.startIndex
        if available >= 1, b[i] != RecordHeader.magic.0 { throw .badMagic(b[i], available >= 2 ? b[i + 1] : 0) }
        if available >= 2, b[i + 1] != RecordHeader.magic.1 { throw .badMagic(b[i], b[i + 1]) }
        if available >= 3, b[i + 2] != RecordHeader.version { throw .unsupportedVersion(b[i + 2]) }
        guard available >= 4 else { return .needs(RecordHeader.size) }
        guard let type = RecordType(rawValue: b[i + 3]) else { throw .unknownType(b[i + 3]) }
        guard let limit = limits.limit(type) else { throw .refused(type, accepted: limits.acceptedTypes) }
        if available >= 5, Int(b[i + 4]) << 8 > limit { throw .oversized(type, length: Int(b[i + 4]) << 8, limit: limit) }
        guard available >= RecordHeader.size else { return .needs(RecordHeader.size) }
        let length = Int(b[i + 4]) << 8 | Int(b[i + 5])
        guard length <= limit else { throw .oversized(type, length: length, limit: limit) }
        let total = RecordHeader.size + length
        guard available >= total else { return .needs(total) }
        return .record(type, body: i + RecordHeader.size..<i + total)
    }

    /// Call when the stream ends: a partial record left over is an error.
    public mutating func finish() throws(RecordDecodingError) {
        if let failure { throw failure }
        if bufferedByteCount > 0 { try fail(.truncated(bufferedBytes: bufferedByteCount)) }
    }

    /// Stops the decoder (the connection is being closed for `reason`): it takes no more.
    public mutating func stop(_ reason: String) { stop(error: .closing(reason)) }

    private mutating func stop(error e: RecordDecodingError) {
        failure = e
        buffer = []
        start = 0
        pending = []
    }

    @discardableResult
    private mutating func fail(_ e: RecordDecodingError) throws(RecordDecodingError) -> RecordView? {
        stop(error: e)
        throw e
    }
}
