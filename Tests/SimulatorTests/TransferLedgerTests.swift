import Testing
@testable import PeerLinkCore
@testable import CountdownDomain
@testable import PeerLinkScenarios
import PhoneWatch

/// The ledger's rules on their own: what counts as a duplicate, a loss, an erased delivery.
@Suite("Transfer ledger rules")
struct TransferLedgerTests {
    static func item(_ seq: UInt64, _ text: String) -> OutboxItem {
        let payload: PlistValue = ["n": .string(text)]
        return OutboxItem(seq: seq, payload: payload, encoded: CanonicalEncoding.encode(payload), stream: .ordinary, isCurrent: false, createdMs: 0)
    }

    static func key(_ seq: UInt64) -> TransferLedger.Key { TransferLedger.Key(sender: .watch, incarnation: 9, seq: seq) }

    @Test func aSecondDeliveryOfOneTransferIsADuplicate() {
        var l = TransferLedger()
        l.queued(Self.key(1), Self.item(1, "a"), nowMs: 0)
        l.deliver(Self.key(1), nowMs: 1)
        #expect(l.problems.isEmpty)
        l.deliver(Self.key(1), nowMs: 2)
        #expect(l.problems.contains { $0.contains("delivered twice") })
    }

    @Test func anAcknowledgedTransferNeverDeliveredIsLostUnlessItsDeliveryWasErased() {
        var l = TransferLedger()
        l.queued(Self.key(1), Self.item(1, "a"), nowMs: 0)
        l.queued(Self.key(2), Self.item(2, "b"), nowMs: 0)
        l.entriesAcknowledge(Self.key(1))
        #expect(l.lost == [Self.key(1)])
        l.deliver(Self.key(1), nowMs: 1)
        #expect(l.lost.isEmpty)
        // The receiver's store loses the delivery (reset or rollback): erased, not lost.
        l.erase(TransferLedger.StreamKey(sender: .watch, incarnation: 9, stream: .ordinary), above: 0, through: 5)
        #expect(l.lost.isEmpty && l.erasedCount == 1)
    }

    @Test func aResentTransferIsTheSameOneAndANewOneOnAReusedSeqIsANewTransfer() {
        var l = TransferLedger()
        l.queued(Self.key(1), Self.item(1, "a"), nowMs: 0)
        l.deliver(Self.key(1), nowMs: 1)
        l.queued(Self.key(1), Self.item(1, "a"), nowMs: 2)  // the sender's store went back: same payload
        #expect(l.violations.isEmpty && l.queuedCount == 1)
        #expect(l.entries[Self.key(1)]?.deliveries == 1)
        // A new transfer on the same seq (the sender's store went back past it): the old
        // delivery does not count for it, so acknowledging it undelivered is a loss.
        l.queued(Self.key(1), Self.item(1, "other"), nowMs: 3)
        #expect(l.violations.isEmpty)
        #expect(l.entries[Self.key(1)]?.deliveries == 0)
        l.entriesAcknowledge(Self.key(1))
        #expect(l.lost == [Self.key(1)])
    }
}

extension TransferLedger {
    /// Marks `key` acknowledged (as the sender's outbox dropping it would).
    mutating func entriesAcknowledge(_ key: Key) {
        observeAcknowledged(key)
    }
}
