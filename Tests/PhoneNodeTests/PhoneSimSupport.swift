import PeerLinkCore
import PeerLinkSim
import PhoneNode
import Testing

/// The phone app and the stub watch on the simulated network: a virtual clock, a seeded
/// generator, faults and crashes (stores and files outlive them).
typealias PhoneNetwork = SimulatedNetwork<PhoneApp, StubWatchApp>

/// A paired phone and stub watch at `start` in `zone`, connected and quiet.
func makePhoneNetwork(seed: UInt64 = 1, start: EpochMs, zone: String = "Asia/Tokyo",
                      configure: (inout LinkConfig) -> Void = { _ in }) throws -> PhoneNetwork {
    let secret = LinkedNodes.secret
    var pc = LinkConfig(role: .phone, pairingSecret: secret)
    var wc = LinkConfig(role: .watch, pairingSecret: secret)
    configure(&pc)
    configure(&wc)
    let calendar = try #require(LocalCalendar(identifier: zone))
    let net = try PhoneNetwork(
        seed: seed, startMs: start,
        phone: .init(makeApp: { PhoneApp() }, config: pc, calendar: calendar, exports: MemoryExportFolder()),
        watch: .init(makeApp: { StubWatchApp() }, config: wc, calendar: calendar))
    #expect(net.runUntilQuiet())
    return net
}

extension SimulatedNetwork where Phone == PhoneApp, Watch == StubWatchApp {
    /// A phone command that must succeed, then the network until quiet.
    @discardableResult
    func onPhone(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> CommandReply {
        let r = command(.phone, line)
        #expect(r.isOK, "phone \(line) → \(r.text)", sourceLocation: sourceLocation)
        runUntilQuiet(maxMs: 60_000)
        return r
    }

    /// A stub-watch command that must succeed, then the network until quiet.
    @discardableResult
    func onWatch(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> CommandReply {
        let r = command(.watch, line)
        #expect(r.isOK, "watch \(line) → \(r.text)", sourceLocation: sourceLocation)
        runUntilQuiet(maxMs: 60_000)
        return r
    }

    /// `query PATH` on the phone; nil when it has no value.
    func phoneValue(_ path: String) -> PlistValue? {
        let r = command(.phone, "query " + path)
        return r.isOK ? r.value : nil
    }

    /// The run-detection prompt for a run that began at 07:00 (samples at 07:00, 07:01, 07:02
    /// local), accepted at 07:03 (then the network runs until quiet when `settle`). Returns
    /// the run's start.
    @discardableResult
    func acceptRunPrompt(day: CivilDate, calendar: LocalCalendar, settle: Bool = true,
                         sourceLocation: SourceLocation = #_sourceLocation) -> EpochMs {
        advance(to: calendar.instant(day, hour: 7, minute: 3))
        onPhone("motion walking high --at 06:59", sourceLocation: sourceLocation)
        onPhone("motion running medium --at 07:00", sourceLocation: sourceLocation)
        onPhone("motion running high --at 07:01", sourceLocation: sourceLocation)
        onPhone("motion running high --at 07:02", sourceLocation: sourceLocation)
        if settle {
            onPhone("notification respond last accept", sourceLocation: sourceLocation)
        } else {
            #expect(command(.phone, "notification respond last accept").isOK, sourceLocation: sourceLocation)
        }
        return calendar.instant(day, hour: 7, minute: 0)
    }
}
