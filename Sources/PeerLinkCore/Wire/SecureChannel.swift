
/// Why a sealed record was refused. Each closes the connection; nothing of the frame it
/// belonged to is used.
public enum SealError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The tag did not verify under the expected key and counter: the record was changed,
    /// replayed, reordered, cut, injected, sealed with another key or with a key older than
    /// the last rekey, or a record before it went missing.
    case authenticationFailed(counter: UInt64)
    /// It authenticated but carries no frame marker (an empty plaintext).
    case empty(counter: UInt64)
    /// Its frame marker names no frame kind.
    case unknownKind(UInt8)
    /// The frame it continues grew past `Frame.maxBodyBytes`.
    case frameTooLarge(Int)

    public var description: String {
        switch self {
        case .authenticationFailed(let n): "sealed record \(n) failed authentication (changed, replayed, reordered, injected, missing before it, or sealed with another key)"
        case .empty(let n): "sealed record \(n) carries nothing"
        case .unknownKind(let k): "sealed frame of unknown kind 0x\(String(k, radix: 16))"
        case .frameTooLarge(let n): "sealed frame of \(n) bytes or more, over the limit of \(Frame.maxBodyBytes)"
        }
    }
}

/// The transport phase of one connection: frames sealed into Noise transport messages,
/// one direction's `CipherState` each way, rekeyed after a bounded number of bytes.
///
/// A frame goes in one or more `sealed` records. Each record's plaintext is a fragment of the
/// frame's body followed by one marker byte: `0` when more fragments follow, else the frame's
/// kind. Fragments hold at most `maxFragmentBytes` (a record body — fragment, marker, 16-byte
/// tag — is then at most 65,535 bytes, a Noise message). The nonce is the direction's record
/// counter (0, 1, 2…: never sent, both sides count), so a record out of its place fails.
/// After the records sealed under a key reach `rekeyAfterBytes` bytes of body, both sides
/// replace that direction's key with `REKEY(k)` (the counter goes on).
public struct SecureChannel: Sendable {
    /// The largest fragment of a frame body in one record.
    public static let maxFragmentBytes = RecordHeader.maxBodyBytes - AEADCipher.tagBytes - 1

    public let cipher: AEADCipher
    public let rekeyAfterBytes: Int
    private var sealer: AEADKey
    private var opener: AEADKey
    /// Records sealed and opened so far: the next nonces.
    public private(set) var sendCounter: UInt64 = 0
    public private(set) var receiveCounter: UInt64 = 0
    /// Record-body bytes sealed (opened) under the current key of each direction.
    private var sentUnderKey = 0
    private var receivedUnderKey = 0
    /// Rekeys done each way (for tests and figures).
    public private(set) var sendRekeys = 0
    public private(set) var receiveRekeys = 0
    /// The fragments of a frame whose last record has not arrived yet.
    private var partial: [UInt8] = []

    public init(keys: TransportKeys, rekeyAfterBytes: Int) {
        precondition(rekeyAfterBytes > 0, "rekeyAfterBytes must be positive")
        cipher = keys.cipher
        self.rekeyAfterBytes = rekeyAfterBytes
        sealer = AEADKey(keys.cipher, key: keys.sending, encrypting: true)
        opener = AEADKey(keys.cipher, key: keys.receiving, encrypting: false)
    }

    /// The key sealing now and the key opening now (tests compare them across a rekey).
    public var currentKeys: (sending: [UInt8], receiving: [UInt8]) { (sealer.bytes, opener.bytes) }

    /// Bytes of a frame split over records that have arrived (0 between frames).
    public var partialFrameBytes: Int { partial.count }

    /// How many records a frame body of `count` bytes takes.
    public static func recordCount(bodyBytes count: Int) -> Int { max(1, (count + maxFragmentBytes - 1) / maxFragmentBytes) }

    /// The bytes on the wire for a frame body of `count` bytes.
    public static func sealedSize(bodyBytes count: Int) -> Int {
        count + recordCount(bodyBytes: count) * (RecordHeader.size + 1 + AEADCipher.tagBytes)
    }

    // MARK: - Sealing

    /// The records of a frame, as one array.
    public mutating func seal(_ frame: Frame) -> [UInt8] {
        frame.body.withUnsafeBytes { seal(frame.kind, body: $0) }
    }

    /// The records of the frame (`kind`, `body`), as one array: each fragment is copied from
    /// `body` into its place, its trailer byte (the kind) after it, and both encrypted there in
    /// one call (`AEADKey.seal(nonce:plaintext:trailer:into:)`); nothing is zeroed first.
    public mutating func seal(_ kind: FrameKind, body: UnsafeRawBufferPointer) -> [UInt8] {
        let records = Self.recordCount(bodyBytes: body.count)
        let total = Self.sealedSize(bodyBytes: body.count)
        return [UInt8](smallUninitializedCapacity: total) { out, initialized in
            var at = 0, from = 0
            for r in 0..<records {
                let n = min(Self.maxFragmentBytes, body.count - from)
                let bodyBytes = n + 1 + AEADCipher.tagBytes
                out[at] = RecordHeader.magic.0
                out[at + 1] = RecordHeader.magic.1
                out[at + 2] = RecordHeader.version
                out[at + 3] = RecordType.sealed.rawValue
                out[at + 4] = UInt8(bodyBytes >> 8)
                out[at + 5] = UInt8(truncatingIfNeeded: bodyBytes)
                at += RecordHeader.size
                sealer.seal(nonce: sendCounter, plaintext: UnsafeRawBufferPointer(rebasing: body[from..<from + n]),
                            trailer: r == records - 1 ? kind.rawValue : 0,
                            into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[at..<at + bodyBytes])))
                at += bodyBytes
                from += n
                noteSealed(bodyBytes: bodyBytes)
            }
            initialized = at
        }
    }

    /// Where the fragments of a frame body of `count` bytes lie in its sealed records: each
    /// fragment's range of the body and the offset its plaintext starts at in the records'
    /// bytes (`sealedSize(bodyBytes:)` of them).
    public static func fragmentLayout(bodyBytes count: Int) -> [(body: Range<Int>, at: Int)] {
        var out: [(body: Range<Int>, at: Int)] = []
        var from = 0, at = 0
        for _ in 0..<recordCount(bodyBytes: count) {
            let n = min(maxFragmentBytes, count - from)
            out.append((from..<from + n, at + RecordHeader.size))
            at += RecordHeader.size + n + 1 + AEADCipher.tagBytes
            from += n
        }
        return out
    }

    /// Seals a frame whose body the caller has written straight into `out` at the places
    /// `fragmentLayout(bodyBytes:)` gives (a file chunk read from disk into its records):
    /// writes the headers, encrypts each fragment in place with its marker, appends the tags.
    /// `out` MUST be `sealedSize(bodyBytes:)` bytes.
    public mutating func sealInPlace(_ kind: FrameKind, bodyBytes count: Int, records out: UnsafeMutableRawBufferPointer) {
        precondition(out.count == Self.sealedSize(bodyBytes: count), "sealInPlace: the records' size")
        let layout = Self.fragmentLayout(bodyBytes: count)
        for (r, f) in layout.enumerated() {
            let n = f.body.count, bodyBytes = n + 1 + AEADCipher.tagBytes
            let h = f.at - RecordHeader.size
            out[h] = RecordHeader.magic.0
            out[h + 1] = RecordHeader.magic.1
            out[h + 2] = RecordHeader.version
            out[h + 3] = RecordType.sealed.rawValue
            out[h + 4] = UInt8(bodyBytes >> 8)
            out[h + 5] = UInt8(truncatingIfNeeded: bodyBytes)
            let region = UnsafeMutableRawBufferPointer(rebasing: out[f.at..<f.at + bodyBytes])
            sealer.seal(nonce: sendCounter, plaintext: UnsafeRawBufferPointer(rebasing: region[0..<n]),
                        trailer: r == layout.count - 1 ? kind.rawValue : 0, into: region)
            noteSealed(bodyBytes: bodyBytes)
        }
    }

    private mutating func noteSealed(bodyBytes: Int) {
        sendCounter += 1
        sentUnderKey += bodyBytes
        if sentUnderKey >= rekeyAfterBytes {
            sealer = AEADKey(cipher, key: AEADKey.rekeyed(cipher, key: sealer.bytes), encrypting: true)
            sentUnderKey = 0
            sendRekeys += 1
        }
    }

    // MARK: - Opening

    /// Opens one sealed record's body: the frame it completes, or nil when it is a fragment
    /// of a frame that goes on. Throws when it does not authenticate or is not well formed;
    /// then the frame in progress is dropped and the connection MUST be closed.
    public mutating func open(_ body: ArraySlice<UInt8>) throws(SealError) -> Frame? {
        let counter = receiveCounter
        guard body.count > AEADCipher.tagBytes else {
            partial = []
            throw body.count == AEADCipher.tagBytes ? .empty(counter: counter) : .authenticationFailed(counter: counter)
        }
        let n = body.count - AEADCipher.tagBytes
        let ok: Bool
        if partial.isEmpty {
            // The usual case, a frame in one record: into the frame's own array (a small one
            // by way of the stack: `smallUninitializedCapacity`). A full record likely starts
            // a frame that spans records (a file chunk): its array gets room for four
            // fragments at once, so it is not copied as it grows.
            let capacity = n == Self.maxFragmentBytes + 1 ? 4 * Self.maxFragmentBytes + 1 : n
            var opened = false
            var plain = [UInt8](smallUninitializedCapacity: capacity) { buf, initialized in
                opened = body.withUnsafeBytes { c in
                    opener.open(nonce: counter, ad: UnsafeRawBufferPointer(start: nil, count: 0), ciphertext: c,
                                into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buf[..<n])))
                }
                initialized = opened ? n : 0
            }
            ok = opened
            guard ok else { throw .authenticationFailed(counter: counter) }
            afterOpening(bodyBytes: body.count)
            let marker = plain.removeLast()
            if marker == 0 {
                partial = plain
                return nil
            }
            guard let kind = FrameKind(rawValue: marker) else { throw .unknownKind(marker) }
            return Frame(kind, plain)
        }
        let at = partial.count
        guard at + n - 1 <= Frame.maxBodyBytes else {
            partial = []
            throw .frameTooLarge(at + n - 1)
        }
        partial.append(contentsOf: repeatElement(0, count: n))
        ok = partial.withUnsafeMutableBytes { p in
            body.withUnsafeBytes { c in opener.open(nonce: counter, ad: UnsafeRawBufferPointer(start: nil, count: 0), ciphertext: c, into: UnsafeMutableRawBufferPointer(rebasing: p[at...])) }
        }
        guard ok else {
            partial = []
            throw .authenticationFailed(counter: counter)
        }
        afterOpening(bodyBytes: body.count)
        let marker = partial.removeLast()
        if marker == 0 { return nil }
        guard let kind = FrameKind(rawValue: marker) else {
            partial = []
            throw .unknownKind(marker)
        }
        defer { partial = [] }
        return Frame(kind, partial)
    }

    private mutating func afterOpening(bodyBytes: Int) {
        receiveCounter += 1
        receivedUnderKey += bodyBytes
        if receivedUnderKey >= rekeyAfterBytes {
            opener = AEADKey(cipher, key: AEADKey.rekeyed(cipher, key: opener.bytes), encrypting: false)
            receivedUnderKey = 0
            receiveRekeys += 1
        }
    }
}
