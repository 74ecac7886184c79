import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

/// User info across link drops, lossy/duplicating/reordering frames and crashes of either
/// node at random points: every committed transfer is delivered exactly once, in order;
/// a transfer cancelled before it was ever sent is never delivered; the outstanding list
/// is right at every step.
@Suite("User info exactly once (simulated)")
struct ExactlyOnceSimulationTests {
    struct Side {
        var enqueued: [(n: Int64, id: String)] = []
        var cancelled: Set<Int64> = []
        /// Enqueued while the link was down and not sent since (cancel keeps them undelivered).
        var neverSent: [(n: Int64, id: String)] = []
    }

    static func appTransfers(_ ctx: NodeContext) -> [UserInfoTransfer] {
        ctx.outstandingUserInfoTransfers.filter { $0.userInfo["n"] != nil }
    }

    static func check(_ net: TestNetwork, _ sides: [DeviceRole: Side], seed: UInt64, step: Int) {
        for (role, side) in sides {
            let sender = role == .phone ? net.phone.ctx : net.watch.ctx
            let receiver = role == .phone ? net.watch.ctx : net.phone.ctx
            let outstanding = Self.appTransfers(sender).map(\.id)
            let live = side.enqueued.filter { !side.cancelled.contains($0.n) }
            #expect(Set(outstanding).isSubset(of: Set(live.map(\.id))), "seed \(seed) step \(step): \(role) lists a transfer it never made or cancelled")
            let delivered = Set(RecorderApp.received(receiver).compactMap { $0["n"]?.intValue })
            for t in live where !outstanding.contains(t.id) {
                #expect(delivered.contains(t.n), "seed \(seed) step \(step): \(role) transfer \(t.n) left the outbox undelivered")
            }
            #expect(outstanding == outstanding.sorted { Int($0.dropFirst())! < Int($1.dropFirst())! }, "seed \(seed) step \(step)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8, 9, 10])
    func everyCommittedTransferIsDeliveredExactlyOnceInOrder(seed: UInt64) throws {
        let net = try makeNetwork(seed: seed)
        var f = LinkFaults()
        f.latencyMs = 5; f.jitterMs = 3; f.lossPercent = 3; f.duplicatePercent = 5; f.reorderPercent = 3
        net.faults = f
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9)
        var sides: [DeviceRole: Side] = [.phone: Side(), .watch: Side()]
        var next: Int64 = 0
        for step in 0..<250 {
            let r = rng.next(in: 0...99)
            switch r {
            case 0..<40:
                let role: DeviceRole = rng.next(in: 0...1) == 0 ? .phone : .watch
                let count = rng.next(in: 1...3)
                for _ in 0..<count {
                    let n = next
                    next += 1
                    let body: (inout NodeContext) -> String? = { ctx in try? ctx.transferUserInfo(["n": .int(n)]).get().id }
                    guard let id = role == .phone ? net.withPhone(body) : net.withWatch(body) else { continue }
                    sides[role]!.enqueued.append((n, id))
                    if !net.isLinkUp { sides[role]!.neverSent.append((n, id)) }
                }
            case 40..<44: try net.crash(.watch)
            case 44..<48: try net.crash(.phone)
            case 48..<53: net.setLink(up: false)
            case 53..<60:
                net.setLink(up: true)
                sides[.phone]!.neverSent = []
                sides[.watch]!.neverSent = []
            case 60..<63: net.resetConnection()
            case 63..<70:
                let role: DeviceRole = rng.next(in: 0...1) == 0 ? .phone : .watch
                guard !net.isLinkUp, !sides[role]!.neverSent.isEmpty else { break }
                let pick = sides[role]!.neverSent.remove(at: rng.next(in: 0...(sides[role]!.neverSent.count - 1)))
                let ok = role == .phone ? net.withPhone { $0.session.cancelUserInfo(id: pick.id) } : net.withWatch { $0.session.cancelUserInfo(id: pick.id) }
                #expect(ok, "seed \(seed) step \(step): cancel of \(pick.id) refused")
                sides[role]!.cancelled.insert(pick.n)
            default:
                net.advance(by: EpochMs(rng.next(in: 1...400)))
            }
            Self.check(net, sides, seed: seed, step: step)
        }
        net.setLink(up: true)
        #expect(net.runUntilQuiet(maxMs: 30 * 60_000), "seed \(seed): did not go quiet")
        Self.check(net, sides, seed: seed, step: 999)
        for (role, side) in sides {
            let receiver = role == .phone ? net.watch.ctx : net.phone.ctx
            let got = RecorderApp.received(receiver).compactMap { $0["n"]?.intValue }
            let expected = side.enqueued.map(\.n).filter { !side.cancelled.contains($0) }
            #expect(got == expected, "seed \(seed): \(role)→\(role.peer) delivered \(got.count) of \(expected.count) (replay: seed \(seed))")
            #expect(Self.appTransfers(role == .phone ? net.phone.ctx : net.watch.ctx).isEmpty, "seed \(seed)")
        }
        #expect(sides.values.map(\.cancelled.count).reduce(0, +) > 0 || seed > 5, "seed \(seed): no cancel exercised")
    }
}
