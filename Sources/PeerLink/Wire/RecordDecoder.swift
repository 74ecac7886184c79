import Shared

/// Why a byte stream is not a valid frame sequence. Each closes the connection.
public enum FrameDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first two bytes of a header were not "PL".
    case badMagic(UInt8, UInt8)
    /// A protocol version this build does not speak.
    case unsupportedVersion(UInt8)
    /// A frame kind this build does not know.
    case unknownKind(UInt8)
    /// A body length over the limit, refused before any allocation.
    case oversized(length: UInt32, limit: Int)
    /// The stream ended in the middle of a frame.
    case truncated(bufferedBytes: Int)

    public var description: String {
        switch self {
        case .badMagic(let a, let b): "bad magic 0x\(String(a, radix: 16))\(String(b, radix: 16)) (expected 0x504c)"
        case .unsupportedVersion(let v): "unsupported protocol version \(v) (this node speaks \(FrameHeader.version))"
        case .unknownKind(let k): "unknown frame kind 0x\(String(k, radix: 16))"
        case .oversized(let n, let limit): "frame length \(n) over the limit of \(limit) bytes"
        case .truncated(let n): "connection closed in the middle of a frame (\(n) bytes buffered)"
        }
    }
}

/// An incremental frame decoder: feed it bytes as they arrive, take frames as they complete.
///
/// It checks the header as soon as its 8 bytes are in, so an oversized length is refused
/// before the body is buffered or allocated. After an error it stays failed.
///
/// Fed bytes are not copied on arrival: frames that lie whole in them are cut straight out,
/// and only a frame that runs past their end is gathered in the decoder's own buffer. Take
/// frames with `next()` until it returns nil before the fed bytes' storage is written again
/// (by then the decoder holds no reference to it).
public struct FrameDecoder: Sendable {
    /// A frame under way: its first bytes, from `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes fed and not yet taken (after `buffer`'s).
    private var pending: ArraySlice<UInt8> = []
    public private(set) var failure: FrameDecodingError?
    public let maxBodyBytes: Int

    public init(maxBodyBytes: Int = FrameHeader.maxBodyBytes) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Bytes received but not yet part of a returned frame.
    public var bufferedByteCount: Int { buffer.count - start + pending.count }

    /// Adds received bytes (kept by reference until `next()` has taken what it can).
    public mutating func feed(_ bytes: ArraySlice<UInt8>) {
        guard failure == nil else { return }
        if !pending.isEmpty { buffer.append(contentsOf: pending) }
        pending = bytes
    }

    /// Adds received bytes.
    public mutating func feed(_ bytes: [UInt8]) { feed(bytes[...]) }

    /// Adds received bytes.
    public mutating func feed<C: Collection>(_ bytes: C) where C.Element == UInt8 { feed(Array(bytes)[...]) }

    /// The next complete frame, nil when more bytes are needed; throws on a protocol violation.
    public mutating func next() throws(FrameDecodingError) -> Frame? {
        if let failure { throw failure }
        do {
            if start == buffer.count {
                // Nothing under way: cut the frame straight from the fed bytes.
                if start > 0 { buffer.removeAll(keepingCapacity: true); start = 0 }
                guard !pending.isEmpty else { return nil }
                if case .frame(let kind, let body) = try head(of: pending) {
                    let frame = Frame(kind, Array(pending[body]))
                    take(upTo: body.upperBound)
                    return frame
                }
                buffer.append(contentsOf: pending)
                pending = []
                return nil
            }
            // A frame is under way in the buffer: move over only what it still needs.
            while true {
                switch try head(of: buffer[start...]) {
                case .frame(let kind, let body):
                    let frame = Frame(kind, Array(buffer[body]))
                    start = body.upperBound
                    if start > 1 << 16 && start * 2 > buffer.count {
                        buffer.removeFirst(start)
                        start = 0
                    }
                    return frame
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

    /// Drops the fed bytes before `index` (and the reference to their storage once all are taken).
    private mutating func take(upTo index: Int) {
        pending = index == pending.endIndex ? [] : pending[index...]
    }

    /// What the bytes at the head of a stream hold.
    private enum Head {
        /// A whole frame, with where its body lies.
        case frame(FrameKind, body: Range<Int>)
        /// Not yet: the frame needs this many bytes in all (the header's size while its length is not in).
        case needs(Int)
    }

    /// Checks the header as far as it has arrived.
    private func head(of b: ArraySlice<UInt8>) throws(FrameDecodingError) -> Head {
        let available = b.count, i = b.startIndex
        if available >= 1, b[i] != FrameHeader.magic.0 { throw .badMagic(b[i], available >= 2 ? b[i + 1] : 0) }
        if available >= 2, b[i + 1] != FrameHeader.magic.1 { throw .badMagic(b[i], b[i + 1]) }
        if available >= 3, b[i + 2] != FrameHeader.version { throw .unsupportedVersion(b[i + 2]) }
        if available >= 4, FrameKind(rawValue: b[i + 3]) == nil { throw .unknownKind(b[i + 3]) }
        guard available >= FrameHeader.size else { return .needs(FrameHeader.size) }
        let length = UInt32(b[i + 4]) << 24 | UInt32(b[i + 5]) << 16 | UInt32(b[i + 6]) << 8 | UInt32(b[i + 7])
        guard Int(length) <= maxBodyBytes else { throw .oversized(length: length, limit: maxBodyBytes) }
        let total = FrameHeader.size + Int(length)
        guard available >= total else { return .needs(total) }
        return .frame(FrameKind(rawValue: b[i + 3])!, body: i + FrameHeader.size..<i + total)
    }

    /// Call when the stream ends: a partial frame left over is an error.
    public mutating func finish() throws(FrameDecodingError) {
        if let failure { throw failure }
        if bufferedByteCount > 0 { try fail(.truncated(bufferedBytes: bufferedByteCount)) }
    }

    @discardableResult
    private mutating func fail(_ e: FrameDecodingError) throws(FrameDecodingError) -> Frame? {
        failure = e
        buffer = []
        start = 0
        pending = []
        throw e
    }
}
