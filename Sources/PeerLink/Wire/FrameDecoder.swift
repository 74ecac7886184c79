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
public struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    public private(set) var failure: FrameDecodingError?
    public let maxBodyBytes: Int

    public init(maxBodyBytes: Int = FrameHeader.maxBodyBytes) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Bytes received but not yet part of a returned frame.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    public mutating func feed<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        guard failure == nil else { return }
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, nil when more bytes are needed; throws on a protocol violation.
    public mutating func next() throws(FrameDecodingError) -> Frame? {
        if let failure { throw failure }
        let available = buffer.count - start
        // Validate the header as far as it has arrived.
        if available >= 1, buffer[start] != FrameHeader.magic.0 { return try fail(.badMagic(buffer[start], available >= 2 ? buffer[start + 1] : 0)) }
        if available >= 2, buffer[start + 1] != FrameHeader.magic.1 { return try fail(.badMagic(buffer[start], buffer[start + 1])) }
        if available >= 3, buffer[start + 2] != FrameHeader.version { return try fail(.unsupportedVersion(buffer[start + 2])) }
        if available >= 4, FrameKind(rawValue: buffer[start + 3]) == nil { return try fail(.unknownKind(buffer[start + 3])) }
        guard available >= FrameHeader.size else { return nil }
        let length = UInt32(buffer[start + 4]) << 24 | UInt32(buffer[start + 5]) << 16 | UInt32(buffer[start + 6]) << 8 | UInt32(buffer[start + 7])
        guard Int(length) <= maxBodyBytes else { return try fail(.oversized(length: length, limit: maxBodyBytes)) }
        guard available >= FrameHeader.size + Int(length) else { return nil }
        let kind = FrameKind(rawValue: buffer[start + 3])!
        let bodyStart = start + FrameHeader.size
        let body = Array(buffer[bodyStart..<bodyStart + Int(length)])
        start = bodyStart + Int(length)
        if start > 1 << 16 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return Frame(kind, body)
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
        throw e
    }
}
