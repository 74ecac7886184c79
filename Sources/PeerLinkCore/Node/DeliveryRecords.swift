
/// What a node has delivered to its peer and received from it, beyond the replicated state:
/// the complication's current payload and the files, kept in the node's store (table
/// `node_delivery`) so that both sides can be compared after they converge (`query
/// sync-state`, docs/SCENARIOS.md *Convergence*).
///
/// Each record carries the node's monotonic time when it was made (what a checker compares
/// with the time a store was damaged) and, for files, the peer store it was exchanged with.
///
/// Rows (keys start with a kind byte):
/// - `c` `s` / `c` `r`: the complication user info last queued tagged current (phone) /
///   last received tagged current (watch): zigzag atMs, 32-byte SHA-256 of its canonical payload;
/// - `f` `o` u64 peerIncarnation u64 number: a file the peer confirmed delivered;
/// - `f` `i` u64 peerIncarnation u64 number: a file delivered here;
///   value: string name, varint size, 32-byte SHA-256 of the content, zigzag atMs;
/// - `f` `x` u64 peerIncarnation u64 first: files the peer delivered from a history this store
///   lost (found at a handshake after it went back in time), numbers `first` through the
///   value's varint (at most `maxForgottenRanges` rows; beyond, the lowest keys go first).
public enum DeliveryRecords {
    public static let table = StoreTable("node_delivery")
    /// Files kept per direction (the oldest go first): a limit, as on everything.
    public static let maxFilesPerDirection = 512
    /// Ranges of forgotten files kept (beyond it, the rows with the lowest keys go first).
    public static let maxForgottenRanges = 64

    /// File numbers `first` through `last` the peer store `peerIncarnation` delivered from a
    /// history this store lost: this store cannot list them among the files it delivered.
    public struct ForgottenFiles: Sendable, Equatable {
        public var peerIncarnation: UInt64
        public var first: UInt64
        public var last: UInt64
    }

    /// A payload seen at a time.
    public struct Mark: Sendable, Equatable {
        public var sha256: [UInt8]
        public var atMs: EpochMs
    }

    /// One file exchanged with a peer store.
    public struct File: Sendable, Equatable {
        public var peerIncarnation: UInt64
        public var number: UInt64
        public var name: String
        public var sizeBytes: Int64
        public var sha256: [UInt8]
        public var atMs: EpochMs
    }

    /// Which way a file went.
    public enum Direction: UInt8, Sendable {
        case sent = 0x6F  // "o": delivered to the peer
        case received = 0x69  // "i": delivered here
    }

    static let complicationSentKey: [UInt8] = [0x63, 0x73]
    static let complicationReceivedKey: [UInt8] = [0x63, 0x72]

    // MARK: - Writes

    static func markWrite(_ m: Mark, key: [UInt8], into b: inout WriteBatch) {
        var w = ByteWriter(capacity: 44)
        w.writeSignedVarint(m.atMs)
        w.writeBytes(m.sha256)
        b.put(table, key, w.bytes)
    }

    /// Records the complication payload this node queued tagged current (`sent`) or received
    /// tagged current.
    static func complicationWrite(_ payload: PlistValue, sent: Bool, atMs: EpochMs, into b: inout WriteBatch) {
        markWrite(Mark(sha256: SHA256.hash(CanonicalEncoding.encode(payload)), atMs: atMs),
                  key: sent ? complicationSentKey : complicationReceivedKey, into: &b)
    }

    static func fileKey(_ d: Direction, peerIncarnation: UInt64, number: UInt64) -> [UInt8] {
        [0x66, d.rawValue] + storeKey(peerIncarnation) + storeKey(number)
    }

    static func fileWrite(_ f: File, _ d: Direction, into b: inout WriteBatch) {
        var w = ByteWriter(capacity: 64 + f.name.utf8.count)
        w.writeString(f.name)
        w.writeVarint(UInt64(max(0, f.sizeBytes)))
        w.writeBytes(f.sha256)
        w.writeSignedVarint(f.atMs)
        b.put(table, fileKey(d, peerIncarnation: f.peerIncarnation, number: f.number), w.bytes)
    }

    // MARK: - Reads

    static func mark(_ store: KeyValueStore, sent: Bool) throws -> Mark? {
        guard let v = try store.get(table, sent ? complicationSentKey : complicationReceivedKey) else { return nil }
        var r = ByteReader(v)
        let at = try r.readSignedVarint()
        return Mark(sha256: Array(try r.readBytes(32)), atMs: at)
    }

    static func files(_ store: KeyValueStore, _ d: Direction) throws -> [File] {
        try store.scan(table).compactMap { row -> File? in
            guard row.key.count == 18, row.key[0] == 0x66, row.key[1] == d.rawValue,
                  let inc = storeKeyValue(Array(row.key[2..<10])), let n = storeKeyValue(Array(row.key[10...])) else { return nil }
            var r = ByteReader(row.value)
            let name = try r.readString()
            let size = Int64(try r.readVarint())
            let sha = Array(try r.readBytes(32))
            return File(peerIncarnation: inc, number: n, name: name, sizeBytes: size, sha256: sha, atMs: try r.readSignedVarint())
        }
    }

    static let forgottenKind: UInt8 = 0x78  // "x"

    static func forgottenKey(peerIncarnation: UInt64, first: UInt64) -> [UInt8] {
        [0x66, forgottenKind] + storeKey(peerIncarnation) + storeKey(first)
    }

    static func forgottenWrite(_ f: ForgottenFiles, store: KeyValueStore, into b: inout WriteBatch) {
        if let all = try? forgotten(store), all.count >= maxForgottenRanges {
            for old in all.sorted(by: { ($0.peerIncarnation, $0.first) < ($1.peerIncarnation, $1.first) }).prefix(all.count + 1 - maxForgottenRanges) {
                b.delete(table, forgottenKey(peerIncarnation: old.peerIncarnation, first: old.first))
            }
        }
        var w = ByteWriter(capacity: 10)
        w.writeVarint(f.last)
        b.put(table, forgottenKey(peerIncarnation: f.peerIncarnation, first: f.first), w.bytes)
    }

    static func forgotten(_ store: KeyValueStore) throws -> [ForgottenFiles] {
        try store.scan(table).compactMap { row -> ForgottenFiles? in
            guard row.key.count == 18, row.key[0] == 0x66, row.key[1] == forgottenKind,
                  let inc = storeKeyValue(Array(row.key[2..<10])), let first = storeKeyValue(Array(row.key[10...])) else { return nil }
            var r = ByteReader(row.value)
            return ForgottenFiles(peerIncarnation: inc, first: first, last: try r.readVarint())
        }
    }

    /// Deletes the oldest file rows of direction `d` beyond the limit (`adding` is about to be written).
    static func pruneWrites(_ store: KeyValueStore, _ d: Direction, adding: Int, into b: inout WriteBatch) {
        guard let all = try? files(store, d), all.count + adding > maxFilesPerDirection else { return }
        for f in all.sorted(by: { ($0.atMs, $0.number) < ($1.atMs, $1.number) }).prefix(all.count + adding - maxFilesPerDirection) {
            b.delete(table, fileKey(d, peerIncarnation: f.peerIncarnation, number: f.number))
        }
    }
}

extension DeliveryRecords.Mark {
    var value: PlistValue { ["sha256": .string(hexString(sha256)), "atMs": .int(atMs)] }
}

extension DeliveryRecords.ForgottenFiles {
    var value: PlistValue {
        ["peer": .string(String(peerIncarnation, radix: 16)), "first": .int(Int64(first)), "last": .int(Int64(last))]
    }
}

extension DeliveryRecords.File {
    var value: PlistValue {
        ["peer": .string(String(peerIncarnation, radix: 16)), "number": .int(Int64(number)), "name": .string(name),
         "bytes": .int(sizeBytes), "sha256": .string(hexString(sha256)), "atMs": .int(atMs)]
    }
}
