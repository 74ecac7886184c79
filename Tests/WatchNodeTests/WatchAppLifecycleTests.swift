import PeerLinkCore
import Testing

@testable import WatchNode

/// Keeping the app alive: presence, extended runtime sessions and their limits.
@Suite struct WatchAppLifecycleTests {
    @Test func backgroundKindRunsInTheBackgroundUntilItsLimit() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        #expect(watch.run("runtime start physical-therapy", at: morning).isOK)
        watch.run("app background", at: morning + 1_000)
        #expect(watch.value("runtime state", at: morning + 1_000)?.stringValue == "running")
        #expect(watch.value("app running", at: morning + 1_000) == .bool(true))
        let limit = morning + ExtendedRuntimeKind.physicalTherapy.limitMs
        #expect(watch.app.nextDeadline(watch.ctx) == limit)
        watch.tick(now: limit - 1)
        #expect(watch.value("runtime state", at: limit - 1)?.stringValue == "running")
        watch.tick(now: limit)
        #expect(watch.value("runtime state", at: limit)?.stringValue == "none")
        #expect(watch.value("runtime last-end", at: limit)?.stringValue == "expired")
        #expect(watch.value("app running", at: limit) == .bool(false), "suspended once nothing keeps it alive")
    }

    @Test func foregroundKindSurvivesWristDownButEndsWhenTheUserLeaves() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        #expect(watch.run("runtime start mindfulness", at: morning).isOK)
        #expect(!watch.run("runtime start self-care", at: morning).isOK, "one at a time")
        watch.run("app wrist-down", at: morning + 1_000)
        #expect(watch.value("runtime kind", at: morning + 1_000)?.stringValue == "mindfulness")
        #expect(watch.value("app running", at: morning + 1_000) == .bool(true))
        watch.run("app wrist-up", at: morning + 2_000)
        #expect(watch.value("app state", at: morning + 2_000)?.stringValue == "foreground")
        watch.run("app background", at: morning + 3_000)
        #expect(watch.value("runtime last-end", at: morning + 3_000)?.stringValue == "userLeftApp")
        #expect(!watch.run("runtime start self-care", at: morning + 4_000).isOK, "only from the foreground")
        watch.run("app wrist-up", at: morning + 5_000)
        #expect(watch.value("app state", at: morning + 5_000)?.stringValue == "background", "raising the wrist does not reopen the app")
    }

    @Test func presenceSurvivesARestartButTheRuntimeSessionDoesNot() throws {
        let store = MemoryStore()
        var watch = try makeWatchEngine(store: store, now: morning)
        watch.run("runtime start physical-therapy", at: morning)
        watch.run("app background", at: morning)
        watch = try makeWatchEngine(store: store, now: morning + 60_000, incarnation: 101)
        #expect(watch.value("app state", at: morning + 60_000)?.stringValue == "background")
        #expect(watch.value("runtime state", at: morning + 60_000)?.stringValue == "none")
        #expect(watch.ctx.session.localAppState.isRunning == false)
    }
}
