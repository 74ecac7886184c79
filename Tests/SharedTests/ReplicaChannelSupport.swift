@testable import PeerLinkCore

/// One direction of a user-info channel over a faulty transport: what PeerLink's
/// `transferUserInfo` does, in miniature. The sender keeps every part until acknowledged and
/// resends it; copies on the wire may be lost, duplicated and reordered; the receiver
/// delivers only the next sequence number (FIFO, exactly once) and acknowledges cumulatively.
struct ReplicaChannel {
    /// Unacknowledged parts, in order.
    var outbox: [(seq: UInt64, bytes: [UInt8])] = []
    var nextSeq: UInt64 = 1
    /// Copies on the wire toward the receiver.
    var wire: [(seq: UInt64, bytes: [UInt8])] = []
    /// Acknowledgements on the wire back to the sender.
    var acks: [UInt64] = []
    /// The receiver's log: the last sequence number delivered.
    var lastDelivered: UInt64 = 0

    /// Queues a part (the outbox write; it goes on the wire when sent).
    mutating func enqueue(_ bytes: [UInt8]) {
        outbox.append((nextSeq, bytes))
        wire.append((nextSeq, bytes))
        nextSeq += 1
    }

    /// Puts every unacknowledged part on the wire again (retransmit or reconnect).
    mutating func resendAll() { wire.append(contentsOf: outbox) }

    var isIdle: Bool { outbox.isEmpty && wire.isEmpty && acks.isEmpty }
}

/// Two peers joined by two faulty channels, for seeded property tests.
struct ReplicaNetwork {
    var a: ReplicaPeer
    var b: ReplicaPeer
    var toB = ReplicaChannel()
    var toA = ReplicaChannel()
    var connected = true
    var nowMs = ReplicaFixture.start
    /// Keys each side knows were deleted (it deleted them or received the tombstone).
    var knownDeletedA: Set<RecordKey> = []
    var knownDeletedB: Set<RecordKey> = []

    init(a: ReplicaPeer, b: ReplicaPeer) {
        self.a = a
        self.b = b
    }

    /// Both sides make their next delta if one is due (only while connected, like the node).
    mutating func makeDeltas() {
        guard connected else { return }
        if let parts = a.sync.makeDelta(from: a.state) { for p in parts { toB.enqueue(ReplicaDeltaCodec.encode(p)) } }
        if let parts = b.sync.makeDelta(from: b.state) { for p in parts { toA.enqueue(ReplicaDeltaCodec.encode(p)) } }
    }

    /// One transport event chosen by `rng`: deliver, duplicate, drop or reorder a wire copy,
    /// deliver or drop an ack, or retransmit.
    mutating func transportStep(_ rng: inout ReplicaSplitMix64, lossRate: Double, duplicateRate: Double) {
        guard connected else { return }
        switch rng.below(5) {
        case 0: toB.resendAll()
        case 1: toA.resendAll()
        default: break
        }
        let towardB = rng.below(2) == 0
        if rng.below(3) == 0 {
            deliverAck(towardB: towardB, rng: &rng, lossRate: lossRate)
        } else {
            deliverPart(towardB: towardB, rng: &rng, lossRate: lossRate, duplicateRate: duplicateRate)
        }
    }

    mutating func deliverPart(towardB: Bool, rng: inout ReplicaSplitMix64, lossRate: Double, duplicateRate: Double) {
        var ch = towardB ? toB : toA
        defer { if towardB { toB = ch } else { toA = ch } }
        guard !ch.wire.isEmpty else { return }
        let i = rng.below(min(ch.wire.count, 3))  // mostly in order, sometimes reordered
        let copy = rng.chance(duplicateRate) ? ch.wire[i] : ch.wire.remove(at: i)
        if rng.chance(lossRate) { return }
        guard copy.seq == ch.lastDelivered + 1 else {
            if copy.seq <= ch.lastDelivered { ch.acks.append(ch.lastDelivered) }  // re-acknowledge a duplicate
            return
        }
        ch.lastDelivered = copy.seq
        let delta = try! ReplicaDeltaCodec.decode(copy.bytes)
        if towardB {
            for r in delta.records where r.tombstone != nil { knownDeletedB.insert(r.key) }
            _ = b.sync.receive(delta, into: &b.state, wallMs: nowMs + b.skewMs)
        } else {
            for r in delta.records where r.tombstone != nil { knownDeletedA.insert(r.key) }
            _ = a.sync.receive(delta, into: &a.state, wallMs: nowMs + a.skewMs)
        }
        ch.acks.append(ch.lastDelivered)
    }

    mutating func deliverAck(towardB: Bool, rng: inout ReplicaSplitMix64, lossRate: Double) {
        // Acks toward B acknowledge B's channel to A.
        var ch = towardB ? toA : toB
        defer { if towardB { toA = ch } else { toB = ch } }
        guard !ch.acks.isEmpty else { return }
        let through = ch.acks.removeFirst()
        if rng.chance(lossRate) { return }
        while let first = ch.outbox.first, first.seq <= through {
            ch.outbox.removeFirst()
            if towardB { b.sync.onPartConfirmed() } else { a.sync.onPartConfirmed() }
        }
    }

    /// The connection drops: copies on the wire and acks in flight are lost.
    mutating func partition() {
        connected = false
        toA.wire = []; toA.acks = []
        toB.wire = []; toB.acks = []
    }

    /// B's store is found corrupt: B starts empty with a new incarnation. Like the link, A's
    /// unacknowledged transfers are then delivered to the new store in order, and B's
    /// outbox and receive log are gone.
    mutating func resetB(incarnation: UInt64) {
        b.resetStore(incarnation: incarnation)
        knownDeletedB = []
        toA = ReplicaChannel()
        toB.wire = []; toB.acks = []
        toB.outbox = toB.outbox.enumerated().map { (UInt64($0.offset + 1), $0.element.bytes) }
        toB.nextSeq = UInt64(toB.outbox.count + 1)
        toB.lastDelivered = 0
        toB.resendAll()
    }

    /// Heals the network and runs it without faults until nothing is left to send.
    mutating func settle(_ rng: inout ReplicaSplitMix64) -> Bool {
        connected = true
        toA.resendAll()
        toB.resendAll()
        for _ in 0..<10_000 {
            makeDeltas()
            if toA.isIdle && toB.isIdle { return true }
            transportStep(&rng, lossRate: 0, duplicateRate: 0)
        }
        return false
    }
}
