import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

/// `cancel()` of a user-info transfer whose frame is already on the wire: Apple's rule is
/// "if the data has already been transferred, calling this method has no effect". So the
/// outcome is one of two, and the sender is told which: delivered before the cancel reached
/// the peer (then `didFinish` without error), or never delivered (no `didFinish`).
@Suite("User info cancel in flight")
struct UserInfoCancelTests {
    /// The ids of the transfers the sender was told finished, harvested after every step of
    /// the node (the recorder app's events are lost when the node is killed).
    final class Finished {
        var ids: [DeviceRole: [String]] = [.phone: [], .watch: []]
        var seen: [DeviceRole: Int] = [.phone: 0, .watch: 0]

        func watch(_ net: TestNetwork) {
            net.observer = { [unowned self, unowned net] role in
                let events = role == .phone ? net.phone.app.events : net.watch.app.events
                for e in events.dropFirst(self.seen[role]!) {
                    if case .didFinishUserInfoTransfer(let t, nil) = e { self.ids[role]!.append(t.id) }
                }
                self.seen[role] = events.count
            }
        }

        func crashed(_ role: DeviceRole) { seen[role] = 0 }
    }

    static func delivered(_ ctx: NodeContext) -> [Int64] { RecorderApp.received(ctx).compactMap { $0["n"]?.intValue } }

    @Test func aCancelThatArrivesAfterTheDeliveryIsReportedAsDelivered() throws {
        let net = try makeNetwork(seed: 1)
        let finished = Finished()
        finished.watch(net)
        net.advance(by: 1_000)
        #expect(net.isLinkUp)
        net.faults.latencyMs = 50
        let t = try net.withWatch { $0.transferUserInfo(["n": .int(1)]) }.get()
        net.advance(by: 10)  // the frame is on the wire, not yet at the phone
        #expect(Self.delivered(net.phone.ctx).isEmpty)
        #expect(net.withWatch { $0.cancel(t) })
        #expect(net.watch.ctx.outstandingUserInfoTransfers.isEmpty, "a cancelled transfer is not outstanding")
        #expect(net.runUntilQuiet())
        #expect(Self.delivered(net.phone.ctx) == [1], "the frame arrived before the cancel: delivered")
        #expect(finished.ids[.watch] == [t.id], "the sender is told it was delivered after all")
        #expect(net.watch.ctx.session.outboxes[0].isEmpty)
    }

    @Test func aCancelledTransferWhoseFrameWasLostIsNeverDeliveredAndTheQueueGoesOn() throws {
        let net = try makeNetwork(seed: 2)
        let finished = Finished()
        finished.watch(net)
        net.advance(by: 1_000)
        net.faults.lossPercent = 100
        let lost = try net.withWatch { $0.transferUserInfo(["n": .int(1)]) }.get()
        let after = try net.withWatch { $0.transferUserInfo(["n": .int(2)]) }.get()  // names 1 as prev
        net.advance(by: 5)
        net.faults.lossPercent = 0
        #expect(net.withWatch { $0.cancel(lost) })
        let third = try net.withWatch { $0.transferUserInfo(["n": .int(3)]) }.get()
        #expect(net.watch.ctx.outstandingUserInfoTransfers.map(\.id) == [after.id, third.id])
        #expect(net.runUntilQuiet())
        #expect(Self.delivered(net.phone.ctx) == [2, 3], "1 is never delivered; 2 and 3 are, in order")
        #expect(finished.ids[.watch] == [after.id, third.id])
        #expect(net.watch.ctx.session.stats.framesSent > 0)
        #expect(net.phone.ctx.session.refusedUserInfo[0].isEmpty, "the refusal is forgotten once a later transfer is delivered")
    }

    /// Over a sealed link a cancel cannot overtake its frame: the reordered record fails to
    /// open and the connection closes; the next handshake settles the cancel (the frame was
    /// never delivered), so the transfer is never delivered and never reported finished.
    @Test func aFrameOvertakenByItsCancelIsNeverDelivered() throws {
        let net = try makeNetwork(seed: 5)
        let finished = Finished()
        finished.watch(net)
        net.advance(by: 1_000)
        net.faults.latencyMs = 10
        net.faults.reorderPercent = 100  // this frame arrives after what is sent next
        let late = try net.withPhone { $0.transferUserInfo(["n": .int(1)]) }.get()
        net.faults.reorderPercent = 0
        #expect(net.withPhone { $0.cancel(late) })
        #expect(net.runUntilQuiet())
        #expect(Self.delivered(net.watch.ctx).isEmpty, "the cancel arrived first: the frame is refused\n\(net.trace.suffix(30).joined(separator: "\n"))")
        #expect(finished.ids[.phone] == [])
        #expect(net.phone.ctx.session.outboxes[0].isEmpty)
        #expect(net.logs.contains { $0.contains("watch warning: closing connection 1: sealed record") && $0.contains("failed authentication") })
        #expect(net.watch.ctx.session.refusedUserInfo[0].isEmpty, "nothing to refuse: the late frame never opened")
        let next = try net.withPhone { $0.transferUserInfo(["n": .int(2)]) }.get()
        #expect(net.runUntilQuiet())
        #expect(Self.delivered(net.watch.ctx) == [2])
        #expect(finished.ids[.phone] == [next.id])
    }

    @Test func whileTheLinkIsDownTheNextHandshakeDecides() throws {
        let net = try makeNetwork(seed: 3)
        let finished = Finished()
        finished.watch(net)
        net.advance(by: 1_000)
        // 1 is delivered but its acknowledgement is lost with the link; 2 is lost on the way.
        net.faults.latencyMs = 20
        let first = try net.withWatch { $0.transferUserInfo(["n": .int(1)]) }.get()
        net.advance(by: 25)  // 1 reached the phone; its ack is on the way back
        #expect(Self.delivered(net.phone.ctx) == [1])
        net.faults.lossPercent = 100
        let second = try net.withWatch { $0.transferUserInfo(["n": .int(2)]) }.get()
        net.setLink(up: false)
        net.faults.lossPercent = 0
        #expect(net.watch.ctx.outstandingUserInfoTransfers.map(\.id) == [first.id, second.id])
        #expect(net.withWatch { $0.cancel(first) })
        #expect(net.withWatch { $0.cancel(second) })
        try net.crash(.watch)  // the cancellations are durable
        finished.crashed(.watch)
        #expect(net.watch.ctx.outstandingUserInfoTransfers.isEmpty)
        #expect(net.watch.ctx.session.outboxes[0].cancelledCount == 2)
        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(Self.delivered(net.phone.ctx) == [1], "2 is never delivered")
        #expect(finished.ids[.watch] == [first.id], "1 had been delivered: the sender is told so")
        #expect(net.watch.ctx.session.outboxes[0].isEmpty)
    }

    @Test func aTransferNeverSentIsDroppedAtOnce() throws {
        let net = try makeNetwork(seed: 4)
        net.advance(by: 1_000)
        net.setLink(up: false)
        net.advance(by: 60_000)  // both sides noticed: no connection
        let t = try net.withPhone { $0.transferUserInfo(["n": .int(1)]) }.get()
        #expect(net.withPhone { $0.cancel(t) })
        #expect(net.phone.ctx.session.outboxes[0].isEmpty, "nothing to ask the peer: it never left")
        #expect(!net.withPhone { $0.cancel(t) }, "a second cancel finds nothing")
        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(Self.delivered(net.watch.ctx).isEmpty)
    }

    @Test func cancelFramesRoundTripAndRejectBadBodies() throws {
        let c = FrameBodies.UserInfoCancel(seq: 300, isComplicationStream: true, wasDelivered: true)
        #expect(try FrameBodies.UserInfoCancel.decode(c.encode()) == c)
        #expect(throws: ByteReaderError.self) { try FrameBodies.UserInfoCancel.decode([0x05, 0x04]) }  // unknown flag
        #expect(throws: ByteReaderError.self) { try FrameBodies.UserInfoCancel.decode([0x00, 0x00]) }  // seq 0
        #expect(throws: ByteReaderError.self) { try FrameBodies.UserInfoCancel.decode([0x05, 0x00, 0x00]) }  // trailing
        #expect(FrameLabeler.label(FrameSummary(Frame(.userInfoCancel, c.encode()))).label == "userInfoCancel u300")
    }

    /// Random transfers, cancels of any outstanding transfer (on the wire or not), crashes,
    /// drops and a lossy, duplicating, reordering link: every transfer is delivered at most
    /// once and in order; one not cancelled exactly once; a cancelled one is delivered exactly
    /// when its sender was told it finished.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16, 17, 18])
    func cancelledMeansNeverDeliveredUnlessTheSenderIsToldOtherwise(seed: UInt64) throws {
        let net = try makeNetwork(seed: seed)
        let finished = Finished()
        finished.watch(net)
        var f = LinkFaults()
        f.latencyMs = 6; f.jitterMs = 3; f.lossPercent = 4; f.duplicatePercent = 5; f.reorderPercent = 4
        net.faults = f
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9)
        var made: [DeviceRole: [(n: Int64, id: String)]] = [.phone: [], .watch: []]
        var cancelled: [DeviceRole: Set<String>] = [.phone: [], .watch: []]
        var next: Int64 = 0
        for _ in 0..<300 {
            let role: DeviceRole = rng.next(in: 0...1) == 0 ? .phone : .watch
            switch rng.next(in: 0...99) {
            case 0..<35:
                let n = next
                next += 1
                let body: (inout NodeContext) -> String? = { try? $0.transferUserInfo(["n": .int(n)]).get().id }
                if let id = role == .phone ? net.withPhone(body) : net.withWatch(body) { made[role]!.append((n, id)) }
            case 35..<55:
                let outstanding = (role == .phone ? net.phone.ctx : net.watch.ctx).outstandingUserInfoTransfers
                guard let pick = outstanding.randomElement(using: &rng) else { break }
                let ok = role == .phone ? net.withPhone { $0.cancel(pick) } : net.withWatch { $0.cancel(pick) }
                #expect(ok, "seed \(seed): cancel of outstanding \(pick.id) refused")
                cancelled[role]!.insert(pick.id)
            case 55..<59:
                try net.crash(role)
                finished.crashed(role)
            case 59..<64: net.setLink(up: false)
            case 64..<72: net.setLink(up: true)
            case 72..<75: net.resetConnection()
            default: net.advance(by: EpochMs(rng.next(in: 1...300)))
            }
        }
        net.setLink(up: true)
        net.faults = .simulatedDefault
        #expect(net.runUntilQuiet(maxMs: 30 * 60_000), "seed \(seed): did not go quiet")
        for role in [DeviceRole.phone, .watch] {
            let got = Self.delivered(role == .phone ? net.watch.ctx : net.phone.ctx)
            let told = Set(finished.ids[role]!)
            let expected = made[role]!.filter { !cancelled[role]!.contains($0.id) || told.contains($0.id) }.map(\.n)
            #expect(got == expected, "seed \(seed): \(role)→\(role.peer) delivered \(got), expected \(expected)")
            #expect(finished.ids[role]!.count == told.count, "seed \(seed): a didFinish reported twice")
            #expect((role == .phone ? net.phone.ctx : net.watch.ctx).outstandingUserInfoTransfers.isEmpty, "seed \(seed)")
        }
        #expect(cancelled.values.map(\.count).reduce(0, +) > 10, "seed \(seed): too few cancels exercised")
    }
}
