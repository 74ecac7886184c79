
/// Why bytes from a connection were refused: its records do not decode, or a sealed record
/// does not open. Either closes the connection with this as the logged reason.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    case record(RecordDecodingError)
    case seal(SealError)

    public var description: String {
        switch self {
        case .record(let e): e.description
        case .seal(let e): e.description
        }
    }
}

/// The wire of one connection as its engine keeps it: the record decoder, and from the
/// handshake's end the sealed channel (`SecureChannel`), with the records counted each way.
///
/// Before keys a frame goes in the clear only when its kind has a plaintext record type
/// (the Noise messages and a refusal); once keys are in, every frame is sealed and only
/// sealed records are accepted.
public struct ConnectionWire: Sendable {
    public var decoder = RecordDecoder(limits: RecordLimits())
    public private(set) var channel: SecureChannel?
    public private(set) var recordsSent = 0
    public private(set) var recordsReceived = 0
    /// When the record under way (or the first record of a frame split over records) began
    /// to arrive; nil between frames.
    public private(set) var frameStartedMs: EpochMs?

    public init() {}

    /// From now on frames are sealed with `keys` (the handshake's `Split()`).
    public mutating func startSealing(_ keys: TransportKeys, rekeyAfterBytes: Int) {
        channel = SecureChannel(keys: keys, rekeyAfterBytes: rekeyAfterBytes)
    }

    /// The bytes of `frame` on this connection.
    public mutating func encode(_ frame: Frame) -> [UInt8] {
        frame.body.withUnsafeBytes { encode(frame.kind, body: $0) }
    }

    /// The bytes of the frame (`kind`, `body`) on this connection.
    public mutating func encode(_ kind: FrameKind, body: UnsafeRawBufferPointer) -> [UInt8] {
        if channel != nil {
            recordsSent += SecureChannel.recordCount(bodyBytes: body.count)
            return channel!.seal(kind, body: body)
        }
        guard let type = kind.plaintextRecordType else {
            preconditionFailure("frame \(kind) before the connection's keys: only handshake frames go in the clear")
        }
        recordsSent += 1
        return RecordEncoder.encode(type, Array(body))
    }

    /// The sealed records of a frame (`kind`) whose body of `bodyBytes` bytes `write` puts in
    /// place: it is called for each fragment with the fragment's range of the body and the
    /// buffer to fill (a file chunk goes from the disk straight into its records). Only once
    /// keys are in.
    public mutating func sealInPlace(_ kind: FrameKind, bodyBytes: Int,
                                     write: (_ body: Range<Int>, _ into: UnsafeMutableRawBufferPointer) throws -> Void) rethrows -> [UInt8] {
        precondition(channel != nil, "sealInPlace before the connection's keys")
        let total = SecureChannel.sealedSize(bodyBytes: bodyBytes)
        var out = [UInt8](unsafeUninitializedCapacity: total) { _, initialized in initialized = total }
        try out.withUnsafeMutableBytes { o in
            for f in SecureChannel.fragmentLayout(bodyBytes: bodyBytes) {
                try write(f.body, UnsafeMutableRawBufferPointer(rebasing: o[f.at..<f.at + f.body.count]))
            }
            channel!.sealInPlace(kind, bodyBytes: bodyBytes, records: o)
        }
        recordsSent += SecureChannel.recordCount(bodyBytes: bodyBytes)
        return out
    }

    /// Adds received bytes.
    public mutating func feed(_ bytes: ArraySlice<UInt8>, now: EpochMs) {
        if frameStartedMs == nil, !bytes.isEmpty { frameStartedMs = now }
        decoder.feed(bytes)
    }

    /// The next complete frame from the bytes fed, nil when more are needed.
    public mutating func nextFrame(limits: RecordLimits, now: EpochMs) throws(WireError) -> Frame? {
        // Once keys are in, nothing but sealed records (whatever the caller allows).
        decoder.limits = channel == nil ? limits : RecordLimits(sealed: limits.sealed ?? RecordHeader.maxBodyBytes)
        while true {
            let view: RecordView
            do {
                guard let v = try decoder.nextView() else { return nil }
                view = v
            } catch {
                throw .record(error)
            }
            recordsReceived += 1
            let frame: Frame?
            switch view.type {
            case .sealed:
                guard channel != nil else { throw .record(.refused(.sealed, accepted: limits.acceptedTypes)) }
                do { frame = try channel!.open(view.body) } catch {
                    decoder.stop(error.description)
                    throw .seal(error)
                }
            case .hello: frame = Frame(.hello, Array(view.body))
            case .helloReply: frame = Frame(.helloReply, Array(view.body))
            case .reject: frame = Frame(.reject, Array(view.body))
            }
            // The next record (or the next fragment of this frame) starts its own clock when
            // its first byte is in.
            let pendingBytes = decoder.bufferedByteCount
            if let frame {
                frameStartedMs = pendingBytes > 0 ? now : nil
                return frame
            }
            if pendingBytes == 0 && (channel?.partialFrameBytes ?? 0) == 0 { frameStartedMs = nil }
        }
    }

    /// When the frame under way started, `frameBytesExpected`, and the bytes buffered (records
    /// not yet whole, and fragments opened): what `LinkSession.onFrameProgress` is told after
    /// every read. `mutating` only so that it is read in place: the engine holds its wires in
    /// a class, and reading the three from there copied the whole wire (its buffers and
    /// keys retained, then released) on every read. Nothing is changed.
    public mutating func frameProgress() -> (startedMs: EpochMs?, bytesExpected: Int, bufferedBytes: Int) {
        (frameStartedMs, frameBytesExpected, decoder.bufferedByteCount + (channel?.partialFrameBytes ?? 0))
    }

    /// The bytes of the frame under way that will have arrived once its current record is
    /// in: the fragments already opened, and the current record (its header's length, or a
    /// header's size while the header is not in). 0 between frames.
    public var frameBytesExpected: Int {
        guard frameStartedMs != nil else { return 0 }
        let partial = channel?.partialFrameBytes ?? 0
        let current = decoder.bufferedByteCount > 0 ? RecordHeader.size + (decoder.announcedBodyBytes ?? 0) : 0
        return partial + current
    }
}
