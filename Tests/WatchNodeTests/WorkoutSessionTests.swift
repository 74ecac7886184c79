import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// A session driven into `state` by legal calls; its last event is at t = 2,000 ms.
func session(in state: WorkoutSessionState) -> WorkoutSession {
    var s = WorkoutSession(id: "w1", configuration: WorkoutConfiguration(activity: .running, location: .outdoor))
    func ok(_ r: Result<WorkoutSessionTransition, WorkoutSessionError>) {
        if case .failure(let e) = r { Issue.record("setup failed: \(e)") }
    }
    switch state {
    case .notStarted: break
    case .prepared: ok(s.prepare())
    case .running: ok(s.startActivity(at: 1_000))
    case .paused: ok(s.startActivity(at: 1_000)); ok(s.pause(at: 2_000))
    case .stopped: ok(s.startActivity(at: 1_000)); ok(s.stopActivity(at: 2_000))
    case .ended: ok(s.startActivity(at: 1_000)); ok(s.end(at: 2_000))
    }
    #expect(s.state == state)
    return s
}

@Suite struct WorkoutSessionTests {
    /// The legal (state, call) pairs and where they lead; everything else is illegal.
    static let legal: [WorkoutSessionState: [WorkoutSessionCall.Name: WorkoutSessionState]] = [
        .notStarted: [.prepare: .prepared, .start: .running],
        .prepared: [.start: .running],
        .running: [.pause: .paused, .stop: .stopped, .end: .ended],
        .paused: [.resume: .running],
        .stopped: [.end: .ended],
        .ended: [:],
    ]

    static let allPairs: [(WorkoutSessionState, WorkoutSessionCall.Name)] =
        WorkoutSessionState.allCases.flatMap { s in WorkoutSessionCall.Name.allCases.map { (s, $0) } }

    @Test(arguments: allPairs)
    func everyCallInEveryStateFollowsTheTable(state: WorkoutSessionState, call: WorkoutSessionCall.Name) {
        var s = session(in: state)
        let before = s
        let result = s.apply(.make(call, atMs: 5_000))
        if let target = Self.legal[state]?[call] {
            guard case .success(let t) = result else {
                Issue.record("\(call) from \(state) should be legal, got \(result)")
                return
            }
            #expect(t.from == state && t.to == target)
            #expect(s.state == target)
        } else {
            #expect(result == .failure(.illegalTransition(call: call, state: state)))
            #expect(s == before, "an illegal call changed the session")
        }
    }

    @Test func tableHasExactlyTheEightLegalTransitionsOfAppleSemantics() {
        let legalCount = Self.allPairs.filter { WorkoutSession.legalStates(for: $0.1).contains($0.0) }.count
        #expect(legalCount == 8)
        #expect(Self.legal.values.map(\.count).reduce(0, +) == 8)
    }

    @Test func illegalCallNamesTheState() {
        var s = session(in: .paused)
        guard case .failure(let e) = s.pause(at: 3_000) else {
            Issue.record("pause while paused must fail")
            return
        }
        #expect(e.description == "cannot pause: session is paused")
    }

    @Test func endedSessionCannotBeRestarted() {
        var s = session(in: .ended)
        for call in WorkoutSessionCall.Name.allCases {
            let r = s.apply(.make(call, atMs: 9_000))
            guard case .failure(let e) = r else {
                Issue.record("\(call) restarted an ended session")
                continue
            }
            #expect(e.description.hasPrefix("cannot \(call.rawValue): session is ended"))
        }
        #expect(s.state == .ended)
    }

    @Test func pauseAndResumeRecordEventsInOrder() {
        var s = session(in: .running)
        _ = s.pause(at: 2_000)
        _ = s.resume(at: 3_000)
        _ = s.pause(at: 4_000)
        #expect(s.events == [.init(kind: .pause, atMs: 2_000), .init(kind: .resume, atMs: 3_000), .init(kind: .pause, atMs: 4_000)])
    }

    @Test func callEarlierThanLastEventIsRefused() {
        var s = session(in: .paused)  // paused at 2,000
        let before = s
        #expect(s.resume(at: 1_999) == .failure(.timeWentBackwards(call: .resume, atMs: 1_999, lastMs: 2_000)))
        #expect(s == before)
        #expect((try? s.resume(at: 2_000).get())?.to == .running)
    }

    @Test func sensorsAreOnOnlyWhileRunningOrPaused() {
        let on = WorkoutSessionState.allCases.filter { session(in: $0).areSensorsOn }
        #expect(Set(on) == [.running, .paused])
    }

    @Test func endFromRunningRecordsStopAndEndTimes() {
        var s = session(in: .paused)
        _ = s.resume(at: 6_000)
        _ = s.end(at: 7_000)
        #expect(s.stopMs == 7_000 && s.endMs == 7_000 && !s.isActive)
    }
}
