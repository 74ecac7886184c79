/// How the replicated state and its sync bookkeeping are laid out in the node's store.
///
/// - `replica`: one row per record; key = varint-prefixed collection and id; value = the
///   record entry (tombstone and field registers with stamps and local seqs).
/// - `replica_meta`: `seq` (the change counter, 8 bytes big-endian), `sync`
///   (`ReplicaSync.Persistent`) and `hlc` (the clock's last timestamp, so it never goes back
///   across a restart even when the record that carried it was deleted).
public enum ReplicaPersistence {
    /// Collected tombstones: key = record key, value = the delete's stamp.
    public static let graves = StoreTable("replica_graves")
    /// The records table.
    public static let records = StoreTable("replica")
    /// The bookkeeping table.
    public static let meta = StoreTable("replica_meta")

    static let seqKey = Array("seq".utf8)
    static let syncKey = Array("sync".utf8)
    static let clockKey = Array("hlc".utf8)

    // MARK: - Writing

    /// Appends the rows for everything changed since the last drain, and the meta rows when
    /// they differ from what was last persisted (so an idle node commits nothing).
    public static func persistChanges(of state: inout ReplicaState, sync: ReplicaSync.Persistent, into batch: inout WriteBatch) {
        let inputs = ReplicaState.PersistedMetaInputs(seq: state.seq, clock: state.clock.last, sync: sync)
        if state.dirtySlots.isEmpty, state.removedKeys.isEmpty, state.gravesAdded.isEmpty, state.gravesRemoved.isEmpty,
           inputs == state.persistedMetaInputs { return }
        defer { state.persistedMetaInputs = inputs }
        let (changed, removed) = state.drainChangedSlots()
        for i in changed { batch.put(records, encodeKey(state.slots[i].key), encodeEntry(state.slots[i].entry)) }
        for key in removed { batch.delete(records, encodeKey(key)) }
        let graveChanges = state.drainGraveChanges()
        for key in graveChanges.added {
            guard let stamp = state.graves[key] else { continue }
            batch.put(graves, encodeKey(key), encodeClock(stamp))
        }
        for key in graveChanges.removed { batch.delete(graves, encodeKey(key)) }
        let seqRow = storeKey(state.seq), syncRow = encodeSync(sync), clockRow = encodeClock(state.clock.last)
        let metaBytes = seqRow + syncRow + clockRow
        guard metaBytes != state.persistedMeta else { return }
        batch.put(meta, seqKey, seqRow)
        batch.put(meta, syncKey, syncRow)
        batch.put(meta, clockKey, clockRow)
        state.persistedMeta = metaBytes
    }

    /// The row key of a record.
    public static func encodeKey(_ k: RecordKey) -> [UInt8] {
        var w = ByteWriter(capacity: 32)
        w.writeString(k.collection)
        w.writeString(k.id)
        return w.bytes
    }

    /// Reads what `encodeKey` wrote.
    public static func decodeKey(_ bytes: [UInt8]) throws(ByteReaderError) -> RecordKey {
        var r = ByteReader(bytes)
        let c = try r.readString(), id = try r.readString()
        guard r.isAtEnd else { throw .malformed("trailing bytes in record key") }
        return RecordKey(c, id)
    }

    static func writeStamp(_ s: HLCTimestamp, _ w: inout ByteWriter) {
        w.writeSignedVarint(s.wallMs); w.writeVarint(UInt64(s.counter)); w.writeVarint(UInt64(s.replica))
    }

    static func readStamp(_ r: inout ByteReader) throws(ByteReaderError) -> HLCTimestamp {
        let wall = try r.readSignedVarint(), c = try r.readVarint(), rep = try r.readVarint()
        guard c <= UInt64(UInt32.max), rep <= UInt64(UInt16.max) else { throw .malformed("bad stamp") }
        return HLCTimestamp(wallMs: wall, counter: UInt32(c), replica: UInt16(rep))
    }

    /// The row value of a record: u8 hasTombstone, [stamp, varint seq], varint fieldCount,
    /// then per field (by name): string name, stamp, varint seq, canonical value.
    public static func encodeEntry(_ e: RecordEntry) -> [UInt8] {
        // Room for a typical record at once (a five-field sample grew 64 → 128 → 256 bytes).
        var w = ByteWriter(capacity: 256)
        if let t = e.tombstone {
            w.writeByte(1); writeStamp(t.stamp, &w); w.writeVarint(t.seq)
        } else {
            w.writeByte(0)
        }
        w.writeVarint(UInt64(e.registers.count))
        // The registers read in place (a copy of each retained and released its name and value).
        e.registers.withUnsafeBufferPointer { registers in
            for f in registers.indices {
                w.writeString(registers[f].name); writeStamp(registers[f].register.stamp, &w); w.writeVarint(registers[f].register.seq)
                CanonicalEncoding.encode(registers[f].register.value, into: &w)
            }
        }
        return w.bytes
    }

    /// Reads what `encodeEntry` wrote.
    public static func decodeEntry(_ bytes: [UInt8]) throws(ByteReaderError) -> RecordEntry {
        var r = ByteReader(bytes)
        var e = RecordEntry()
        let flag = try r.readByte()
        guard flag <= 1 else { throw .malformed("bad record entry flag") }
        if flag == 1 {
            let s = try readStamp(&r)
            e.markDeleted(Tombstone(stamp: s, seq: try r.readVarint()))
        }
        let n = try r.readVarint()
        guard n <= UInt64(r.remaining) else { throw .lengthTooLarge(n) }
        for _ in 0..<n {
            let name = try r.readString()
            let s = try readStamp(&r)
            let seq = try r.readVarint()
            let value = try CanonicalEncoding.decode(from: &r)
            if e.tombstone == nil { e.write(name, Register(value: value, stamp: s, seq: seq)) }
        }
        guard r.isAtEnd else { throw .malformed("trailing bytes in record entry") }
        return e
    }

    /// The `hlc` row: the clock's last timestamp.
    public static func encodeClock(_ s: HLCTimestamp) -> [UInt8] {
        var w = ByteWriter(capacity: 16)
        writeStamp(s, &w)
        return w.bytes
    }

    /// The `sync` row: u8 version (1), u64 incarnation, u64 peerIncarnation, varint
    /// peerWatermark, varint ackedByPeer, varint inFlightUpTo + 1 (0: none), varint parts
    /// left, u8 flags (1 in-flight stale, 2 resend the peer's writes, 4 announce a reset, 8 owes
    /// an ack, 16 send whole records, 32 awaits a refill), then, only when not 0, u64 formerPeerIncarnation.
    public static func encodeSync(_ p: ReplicaSync.Persistent) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.writeByte(1)
        w.writeUInt64BE(p.incarnation); w.writeUInt64BE(p.peerIncarnation)
        w.writeVarint(p.peerWatermark); w.writeVarint(p.ackedByPeer)
        w.writeVarint(p.inFlightUpTo.map { $0 + 1 } ?? 0)
        w.writeVarint(UInt64(max(0, p.inFlightPartsLeft)))
        var flags: UInt8 = 0
        if p.inFlightIsStale { flags |= 1 }
        if p.resendPeerWrites { flags |= 2 }
        if p.announceReset { flags |= 4 }
        if p.owesAck { flags |= 8 }
        if p.sendWholeRecords { flags |= 16 }
        if p.awaitsRefill { flags |= 32 }
        w.writeByte(flags)
        if p.formerPeerIncarnation != 0 { w.writeUInt64BE(p.formerPeerIncarnation) }
        return w.bytes
    }

    /// Reads what `encodeSync` wrote.
    public static func decodeSync(_ bytes: [UInt8]) throws(ByteReaderError) -> ReplicaSync.Persistent {
        var r = ByteReader(bytes)
        guard try r.readByte() == 1 else { throw .malformed("unknown sync meta version") }
        var p = ReplicaSync.Persistent(incarnation: try r.readUInt64BE())
        p.peerIncarnation = try r.readUInt64BE()
        p.peerWatermark = try r.readVarint()
        p.ackedByPeer = try r.readVarint()
        let inflight = try r.readVarint()
        p.inFlightUpTo = inflight == 0 ? nil : inflight - 1
        p.inFlightPartsLeft = Int(min(try r.readVarint(), 1 << 20))
        let flags = try r.readByte()
        p.inFlightIsStale = flags & 1 != 0
        p.resendPeerWrites = flags & 2 != 0
        p.announceReset = flags & 4 != 0
        p.owesAck = flags & 8 != 0
        p.sendWholeRecords = flags & 16 != 0
        p.awaitsRefill = flags & 32 != 0
        if !r.isAtEnd { p.formerPeerIncarnation = try r.readUInt64BE() }
        return p
    }

    // MARK: - Loading

    /// Reads the state and sync bookkeeping; nil sync when the store is new.
    /// Throws `StoreCorruption` when a row does not decode.
    public static func load(from store: KeyValueStore, replica: UInt16, schema: ReplicaSchema) throws -> (ReplicaState, ReplicaSync.Persistent?) {
        var state = ReplicaState(replica: replica, schema: schema)
        do {
            for row in try store.scan(records) {
                state.load(try decodeKey(row.key), try decodeEntry(row.value))
            }
            for row in try store.scan(graves) {
                var r = ByteReader(row.value)
                let stamp = try readStamp(&r)
                guard r.isAtEnd else { throw ByteReaderError.malformed("trailing bytes in grave row") }
                state.loadGrave(try decodeKey(row.key), stamp)
            }
            var sync: ReplicaSync.Persistent?
            var metaBytes: [[UInt8]] = [[], [], []]
            for row in try store.scan(meta) {
                if row.key == seqKey {
                    guard let s = storeKeyValue(row.value) else { throw ByteReaderError.malformed("bad seq row") }
                    state.loadSeq(s)
                    metaBytes[0] = row.value
                }
                if row.key == syncKey {
                    sync = try decodeSync(row.value)
                    metaBytes[1] = row.value
                }
                if row.key == clockKey {
                    var r = ByteReader(row.value)
                    let last = try readStamp(&r)
                    guard r.isAtEnd else { throw ByteReaderError.malformed("trailing bytes in clock row") }
                    state.loadClock(last)
                    metaBytes[2] = row.value
                }
            }
            state.persistedMeta = metaBytes.allSatisfy { !$0.isEmpty } ? metaBytes.joined().map { $0 } : []
            return (state, sync)
        } catch let e as ByteReaderError {
            throw StoreCorruption(reason: "replicated state row does not decode: \(e)")
        }
    }
}
