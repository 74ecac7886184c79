
/// How a session's durable state is laid out in the node store (all integers big-endian keys).
///
/// - `link_meta`: `state` = u8 version 2, u64 incarnation, varint nextSeq, u64 peerIncarnation,
///   varint lastDelivered (ordinary), varint lastDelivered (complication), u8 flags
///   (1 peerEverSeen, 2 peerComplicationEnabled), zigzag budgetDay, varint budgetUsed,
///   varint contextVersion, varint contextAckedVersion, varint receivedContextVersion,
///   varint nextFileNumber, varint lastFileDelivered, varint nextInboxSeq,
///   varint peerAckedThrough, varint highestSeqSent (absent in older rows: 0), varint
///   highestFileSent (absent in older rows: nextFileNumber − 1).
/// - `link_outbox`: key seq; value u8 flags (1 complication stream, 2 current), zigzag
///   createdMs, canonical payload.
/// - `link_context`: `sent` and `received`: canonical payloads.
/// - `link_files_out`: key number; value string path, string name, varint size, zigzag
///   createdMs, optional metadata (u8 0/1 then canonical).
/// - `link_files_in`: `current`: varint number, string name, varint size, length-prefixed
///   SHA-256 (empty until `fileEnd`), varint committedBytes, varint verifyFailures, optional
///   metadata.
/// - `link_inbox`: key seq; value u8 kind (1 user info, 2 complication user info, 3 context,
///   4 file) then the canonical payload or, for a file, string path, string name, varint
///   size, optional metadata.
public enum LinkPersistence {
    public static let meta = StoreTable("link_meta")
    public static let outbox = StoreTable("link_outbox")
    public static let context = StoreTable("link_context")
    public static let filesOut = StoreTable("link_files_out")
    public static let filesIn = StoreTable("link_files_in")
    public static let inbox = StoreTable("link_inbox")
    static let stateKey = Array("state".utf8)
    static let sentKey = Array("sent".utf8)
    static let receivedKey = Array("received".utf8)
    static let currentKey = Array("current".utf8)
    static let metaVersion: UInt8 = 2

    // MARK: - Writes

    /// Writes the scalar state.
    public static func metaWrite(_ p: LinkPersistent, into b: inout WriteBatch) {
        var w = ByteWriter(capacity: 80)
        w.writeByte(metaVersion)
        w.writeUInt64BE(p.incarnation)
        w.writeVarint(p.nextSeq)
        w.writeUInt64BE(p.peerIncarnation)
        w.writeVarint(p.lastDeliveredFromPeer)
        w.writeVarint(p.lastComplicationDeliveredFromPeer)
        w.writeByte((p.peerEverSeen ? 1 : 0) | (p.peerComplicationEnabled ? 2 : 0))
        w.writeSignedVarint(Int64(p.complicationBudgetDay))
        w.writeVarint(UInt64(p.complicationTransfersUsed))
        w.writeVarint(p.contextVersion)
        w.writeVarint(p.contextAckedVersion)
        w.writeVarint(p.receivedContextVersion)
        w.writeVarint(p.nextFileNumber)
        w.writeVarint(p.lastFileDelivered)
        w.writeVarint(p.nextInboxSeq)
        w.writeVarint(p.peerAckedThrough)
        w.writeVarint(p.highestSeqSent)
        w.writeVarint(p.highestFileSent)
        b.put(meta, stateKey, w.bytes)
    }

    public static func encodeItem(_ item: OutboxItem) -> [UInt8] {
        var w = ByteWriter(capacity: item.encoded.count + 12)
        w.writeByte((item.stream == .complication ? 1 : 0) | (item.isCurrent ? 2 : 0) | (item.isCancelled ? 4 : 0))
        w.writeSignedVarint(item.createdMs)
        w.writeBytes(item.encoded)
        return w.bytes
    }

    static func writeOptional(_ v: PlistValue?, _ w: inout ByteWriter) {
        if let v { w.writeByte(1); CanonicalEncoding.encode(v, into: &w) } else { w.writeByte(0) }
    }

    static func readOptional(_ r: inout ByteReader) throws(ByteReaderError) -> PlistValue? {
        switch try r.readByte() {
        case 0: return nil
        case 1: return try CanonicalEncoding.decode(from: &r)
        case let f: throw .malformed("optional flag \(f)")
        }
    }

    public static func encodeOutgoing(_ f: OutgoingFile) -> [UInt8] {
        var w = ByteWriter(capacity: 96)
        w.writeString(f.path); w.writeString(f.name); w.writeVarint(UInt64(f.sizeBytes))
        w.writeSignedVarint(f.createdMs); writeOptional(f.metadata, &w)
        if f.isCancelled { w.writeByte(1) }  // absent: not cancelled
        return w.bytes
    }

    public static func incomingWrite(_ f: IncomingFile?, into b: inout WriteBatch) {
        guard let f else { b.delete(filesIn, currentKey); return }
        var w = ByteWriter(capacity: 96)
        w.writeVarint(f.number); w.writeString(f.name); w.writeVarint(UInt64(f.sizeBytes)); w.writeLengthPrefixed(f.sha256)
        w.writeVarint(UInt64(f.committedBytes)); w.writeVarint(UInt64(f.verifyFailures)); writeOptional(f.metadata, &w)
        b.put(filesIn, currentKey, w.bytes)
    }

    public static func encodePending(_ c: PendingContent) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        switch c {
        case .userInfo(let v, let isComplication): w.writeByte(isComplication ? 2 : 1); CanonicalEncoding.encode(v, into: &w)
        case .applicationContext(let v): w.writeByte(3); CanonicalEncoding.encode(v, into: &w)
        case .file(let f):
            w.writeByte(4); w.writeString(f.path); w.writeString(f.name); w.writeVarint(UInt64(f.sizeBytes)); writeOptional(f.metadata, &w)
        }
        return w.bytes
    }

    public static func contextWrite(sent: PlistValue?, into b: inout WriteBatch) {
        if let sent { b.put(context, sentKey, CanonicalEncoding.encode(sent)) } else { b.delete(context, sentKey) }
    }

    public static func contextWrite(received: PlistValue?, into b: inout WriteBatch) {
        if let received { b.put(context, receivedKey, CanonicalEncoding.encode(received)) } else { b.delete(context, receivedKey) }
    }

    // MARK: - Load

    /// Reads the persisted session state; a new one (with `newIncarnation`) when the store is empty.
    public static func load(from store: KeyValueStore, newIncarnation: UInt64) throws -> LinkPersistent {
        do {
            guard let m = try store.get(meta, stateKey) else { return LinkPersistent(incarnation: newIncarnation) }
            var r = ByteReader(m)
            guard try r.readByte() == metaVersion else { throw StoreCorruption(reason: "unknown link meta version") }
            var p = LinkPersistent(incarnation: try r.readUInt64BE())
            p.nextSeq = try r.readVarint()
            p.peerIncarnation = try r.readUInt64BE()
            p.lastDeliveredFromPeer = try r.readVarint()
            p.lastComplicationDeliveredFromPeer = try r.readVarint()
            let flags = try r.readByte()
            p.peerEverSeen = flags & 1 != 0
            p.peerComplicationEnabled = flags & 2 != 0
            p.complicationBudgetDay = Int(try r.readSignedVarint())
            p.complicationTransfersUsed = Int(try r.readVarint())
            p.contextVersion = try r.readVarint()
            p.contextAckedVersion = try r.readVarint()
            p.receivedContextVersion = try r.readVarint()
            p.nextFileNumber = try r.readVarint()
            p.lastFileDelivered = try r.readVarint()
            p.nextInboxSeq = try r.readVarint()
            if !r.isAtEnd { p.peerAckedThrough = try r.readVarint() }
            if !r.isAtEnd { p.highestSeqSent = try r.readVarint() }
            p.highestFileSent = r.isAtEnd ? p.nextFileNumber - 1 : try r.readVarint()
            for row in try store.scan(outbox) {
                guard let seq = storeKeyValue(row.key) else { throw StoreCorruption(reason: "bad outbox key") }
                var ir = ByteReader(row.value)
                let f = try ir.readByte()
                let created = try ir.readSignedVarint()
                let encoded = Array(row.value[ir.offset...])
                p.outbox.append(OutboxItem(seq: seq, payload: try CanonicalEncoding.decode(encoded), encoded: encoded,
                                           stream: f & 1 != 0 ? .complication : .ordinary, isCurrent: f & 2 != 0, createdMs: created,
                                           isCancelled: f & 4 != 0))
            }
            if let s = try store.get(context, sentKey) { p.applicationContext = try CanonicalEncoding.decode(s) }
            if let s = try store.get(context, receivedKey) { p.receivedApplicationContext = try CanonicalEncoding.decode(s) }
            for row in try store.scan(filesOut) {
                guard let n = storeKeyValue(row.key) else { throw StoreCorruption(reason: "bad file outbox key") }
                var fr = ByteReader(row.value)
                let path = try fr.readString(), name = try fr.readString(), size = Int64(try fr.readVarint())
                let created = try fr.readSignedVarint()
                let metadata = try readOptional(&fr)
                let cancelled = fr.isAtEnd ? false : try fr.readByte() == 1
                p.outgoingFiles.append(OutgoingFile(number: n, path: path, name: name, sizeBytes: size,
                                                    metadata: metadata, createdMs: created, isCancelled: cancelled))
            }
            if let v = try store.get(filesIn, currentKey) {
                var fr = ByteReader(v)
                p.incomingFile = IncomingFile(number: try fr.readVarint(), name: try fr.readString(), sizeBytes: Int64(try fr.readVarint()),
                                              sha256: Array(try fr.readLengthPrefixed()), metadata: nil, committedBytes: Int64(try fr.readVarint()),
                                              verifyFailures: Int(try fr.readVarint()))
                p.incomingFile!.metadata = try readOptional(&fr)
            }
            for row in try store.scan(inbox) {
                guard let seq = storeKeyValue(row.key) else { throw StoreCorruption(reason: "bad inbox key") }
                p.inbox.append(InboxEntry(seq: seq, content: try decodePending(row.value)))
            }
            return p
        } catch let e as ByteReaderError {
            throw StoreCorruption(reason: "link state row does not decode: \(e)")
        }
    }

    static func decodePending(_ bytes: [UInt8]) throws(ByteReaderError) -> PendingContent {
        var r = ByteReader(bytes)
        switch try r.readByte() {
        case 1: return .userInfo(try CanonicalEncoding.decode(from: &r), isComplication: false)
        case 2: return .userInfo(try CanonicalEncoding.decode(from: &r), isComplication: true)
        case 3: return .applicationContext(try CanonicalEncoding.decode(from: &r))
        case 4:
            var f = ReceivedFile(path: try r.readString(), name: try r.readString(), metadata: nil, sizeBytes: Int64(try r.readVarint()))
            f.metadata = try readOptional(&r)
            return .file(f)
        case let k: throw .malformed("inbox kind \(k)")
        }
    }
}
