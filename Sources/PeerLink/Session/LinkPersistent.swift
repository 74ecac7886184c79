import Shared

/// One queued user-info transfer in the sender's durable outbox.
public struct OutboxItem: Sendable, Equatable {
    public var seq: UInt64
    public var payload: PlistValue
    /// The canonical encoding of `payload` (what goes on the wire).
    public var encoded: [UInt8]
    public var isComplication: Bool
    public var createdMs: EpochMs
}

/// The part of a session that survives restarts and crashes.
public struct LinkPersistent: Sendable, Equatable {
    /// This link store's incarnation: random, chosen when the store was created.
    public var incarnation: UInt64
    /// The next outbox sequence number (starts at 1).
    public var nextSeq: UInt64 = 1
    /// Undelivered transfers, in seq order.
    public var outbox: [OutboxItem] = []
    /// The peer incarnation whose stream `lastDeliveredFromPeer` counts.
    public var peerIncarnation: UInt64 = 0
    /// The highest peer seq delivered to the app here (the receive log).
    public var lastDeliveredFromPeer: UInt64 = 0
    /// A peer has authenticated at least once (the phone's `isWatchAppInstalled`).
    public var peerEverSeen = false

    public init(incarnation: UInt64) { self.incarnation = incarnation }
}

/// How a session's durable state is laid out in the node store.
///
/// - `link_outbox`: key = seq (8 bytes big-endian); value = u8 flags (1 complication),
///   varint createdMs (zigzag), canonical payload.
/// - `link_meta`: `state` = u8 version, u64 incarnation, varint nextSeq, u64 peerIncarnation,
///   varint lastDeliveredFromPeer, u8 peerEverSeen.
public enum LinkPersistence {
    public static let outbox = StoreTable("link_outbox")
    public static let meta = StoreTable("link_meta")
    static let stateKey = Array("state".utf8)

    public static func encodeMeta(_ p: LinkPersistent) -> [UInt8] {
        var w = ByteWriter(capacity: 40)
        w.writeByte(1)
        w.writeUInt64BE(p.incarnation)
        w.writeVarint(p.nextSeq)
        w.writeUInt64BE(p.peerIncarnation)
        w.writeVarint(p.lastDeliveredFromPeer)
        w.writeByte(p.peerEverSeen ? 1 : 0)
        return w.bytes
    }

    public static func metaWrite(_ p: LinkPersistent, into b: inout WriteBatch) {
        b.put(meta, stateKey, encodeMeta(p))
    }

    public static func encodeItem(_ item: OutboxItem) -> [UInt8] {
        var w = ByteWriter(capacity: item.encoded.count + 12)
        w.writeByte(item.isComplication ? 1 : 0)
        w.writeSignedVarint(item.createdMs)
        w.writeBytes(item.encoded)
        return w.bytes
    }

    /// Reads the persisted session state; a new one (with `newIncarnation`) when the store is empty.
    public static func load(from store: KeyValueStore, newIncarnation: UInt64) throws -> LinkPersistent {
        do {
            guard let m = try store.get(meta, stateKey) else { return LinkPersistent(incarnation: newIncarnation) }
            var r = ByteReader(m)
            guard try r.readByte() == 1 else { throw StoreCorruption(reason: "unknown link meta version") }
            var p = LinkPersistent(incarnation: try r.readUInt64BE())
            p.nextSeq = try r.readVarint()
            p.peerIncarnation = try r.readUInt64BE()
            p.lastDeliveredFromPeer = try r.readVarint()
            p.peerEverSeen = try r.readByte() == 1
            for row in try store.scan(outbox) {
                guard let seq = storeKeyValue(row.key) else { throw StoreCorruption(reason: "bad outbox key") }
                var ir = ByteReader(row.value)
                let flags = try ir.readByte()
                let created = try ir.readSignedVarint()
                let encoded = Array(row.value[ir.offset...])
                let payload = try CanonicalEncoding.decode(encoded)
                p.outbox.append(OutboxItem(seq: seq, payload: payload, encoded: encoded, isComplication: flags & 1 == 1, createdMs: created))
            }
            return p
        } catch let e as ByteReaderError {
            throw StoreCorruption(reason: "link state row does not decode: \(e)")
        }
    }
}
