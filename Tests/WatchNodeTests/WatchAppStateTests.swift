import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

@Suite struct WatchAppStateTests {
    @Test func wristDownWithoutAWorkoutMakesTheAppUnreachable() {
        var app = WatchAppState()
        #expect(app.isReachableInput)
        #expect(app.onPresenceChanged(.wristDown, at: 0) == [.reachabilityInputChanged(false)])
        #expect(app.onPresenceChanged(.foreground, at: 1) == [.reachabilityInputChanged(true)])
        #expect(app.onPresenceChanged(.background, at: 2) == [.reachabilityInputChanged(false)])
    }

    @Test(arguments: WorkoutSessionState.allCases)
    func workoutStateDecidesBackgroundReachability(state: WorkoutSessionState) {
        var app = WatchAppState(presence: .background)
        _ = app.onWorkoutStateChanged(state)
        let expected: Set<WorkoutSessionState> = [.prepared, .running, .paused]
        #expect(app.isReachableInput == expected.contains(state))
        _ = app.onPresenceChanged(.wristDown, at: 0)
        #expect(app.isReachableInput == expected.contains(state))
    }

    @Test func endingTheWorkoutInTheBackgroundDropsReachability() {
        var app = WatchAppState(presence: .background)
        #expect(app.onWorkoutStateChanged(.running) == [.reachabilityInputChanged(true)])
        #expect(app.onWorkoutStateChanged(.ended) == [.reachabilityInputChanged(false)])
        #expect(app.workoutState == nil)
    }

    @Test(arguments: ExtendedRuntimeKind.allCases)
    func extendedRuntimeExpiresAtItsLimit(kind: ExtendedRuntimeKind) {
        let limits: [ExtendedRuntimeKind: EpochMs] = [
            .selfCare: 10 * minute, .mindfulness: 60 * minute, .physicalTherapy: 60 * minute, .smartAlarm: 30 * minute,
        ]
        var app = WatchAppState()
        let start: EpochMs = 1_000
        let events = app.startExtendedRuntime(kind, at: start)
        #expect(events == [.extendedRuntimeStarted(kind: kind, expiresAtMs: start + limits[kind]!), .scheduleTick(atMs: start + limits[kind]!)])
        _ = app.onPresenceChanged(.wristDown, at: start + 1)
        #expect(app.isReachableInput, "the session keeps the app running with the wrist down")
        #expect(app.onTick(at: start + limits[kind]! - 1).isEmpty)
        #expect(app.onTick(at: start + limits[kind]!) == [
            .extendedRuntimeEnded(kind: kind, reason: .expired, atMs: start + limits[kind]!), .reachabilityInputChanged(false),
        ])
        #expect(app.extendedRuntime == nil && app.nextDeadlineMs == nil)
    }

    @Test func leavingTheAppEndsOnlyForegroundKinds() {
        for kind in ExtendedRuntimeKind.allCases {
            var app = WatchAppState()
            _ = app.startExtendedRuntime(kind, at: 0)
            let events = app.onPresenceChanged(.background, at: minute)
            if kind.isForeground {
                #expect(events == [.extendedRuntimeEnded(kind: kind, reason: .userLeftApp, atMs: minute), .reachabilityInputChanged(false)])
            } else {
                #expect(events.isEmpty, "\(kind) runs in the background")
                #expect(app.isReachableInput)
            }
        }
        #expect(ExtendedRuntimeKind.allCases.filter(\.isForeground) == [.selfCare, .mindfulness])
    }

    @Test func extendedRuntimeStartRules() {
        var app = WatchAppState(presence: .background)
        #expect(app.startExtendedRuntime(.selfCare, at: 0) == [.refused(.notInForeground(kind: .selfCare))])
        _ = app.onPresenceChanged(.foreground, at: 0)
        _ = app.startExtendedRuntime(.mindfulness, at: 0)
        #expect(app.startExtendedRuntime(.selfCare, at: 1) == [.refused(.runtimeAlreadyRunning(kind: .selfCare, running: .mindfulness))])
        #expect(app.stopExtendedRuntime(at: 2) == [.extendedRuntimeEnded(kind: .mindfulness, reason: .stoppedByApp, atMs: 2)])
    }

    @Test func expiryDueBeforeLeavingIsReportedAsExpiry() {
        var app = WatchAppState()
        _ = app.startExtendedRuntime(.selfCare, at: 0)
        let events = app.onPresenceChanged(.background, at: 11 * minute)
        #expect(events.first == .extendedRuntimeEnded(kind: .selfCare, reason: .expired, atMs: 10 * minute))
    }
}
