import PeerLinkCore
import FitnessDomain
import CountdownDomain
import PhoneNode
import Testing

/// The phone app over real WatchConnectivity channels: the simulated network between the
/// phone app and a stub watch that records what arrives.
@Suite struct PhoneConnectivityTests {
    typealias F = PhoneFixture
    static let tokyo = LocalCalendar(identifier: "Asia/Tokyo")!
    static let june1 = CivilDate(year: 2026, month: 6, day: 1)

    // MARK: - Start requests

    @Test func acceptedRunPromptAsksTheReachableWatchByMessage() throws {
        let net = try makePhoneNetwork(seed: 21, start: F.local("Asia/Tokyo", 2026, 6, 1, 6, 55))
        let runStart = net.acceptRunPrompt(day: Self.june1, calendar: Self.tokyo)
        let expected: PlistValue = ["startWorkout": ["activity": "running", "startMs": .int(runStart)]]
        #expect(net.watch.app.messages == [expected], "credited from the run's first sample")
        #expect(net.watch.app.userInfo.isEmpty)
        #expect(net.phoneValue("watch-start via") == "message")
        #expect(net.phoneValue("watch-start result") == "ok")
        #expect(net.phoneValue("messages sent")?.int == 1)
        #expect(net.phoneValue("effect last outcome") == "message")
    }

    @Test func unreachableWatchGetsTheStartAsUserInfoWhenItsAppRuns() throws {
        let net = try makePhoneNetwork(seed: 22, start: F.local("Asia/Tokyo", 2026, 6, 1, 6, 55))
        net.onWatch("app background")
        let runStart = net.acceptRunPrompt(day: Self.june1, calendar: Self.tokyo)
        #expect(net.phoneValue("watch-start via") == "userInfo")
        #expect(net.watch.app.messages.isEmpty, "no message to an app that is not reachable")
        #expect(net.watch.app.userInfo.isEmpty, "kept until the watch app runs")
        net.onWatch("app foreground")
        #expect(net.watch.app.userInfo.map(\.info) == [["startWorkout": ["activity": "running", "startMs": .int(runStart)]]])
    }

    @Test func aFailedStartMessageFallsBackToUserInfo() throws {
        let net = try makePhoneNetwork(seed: 23, start: F.local("Asia/Tokyo", 2026, 6, 1, 6, 55))
        net.onWatch("answers off")
        net.acceptRunPrompt(day: Self.june1, calendar: Self.tokyo, settle: false)
        #expect(net.phoneValue("watch-start result") == "pending")
        net.advance(by: 4_000)
        #expect(net.watch.app.messages.count == 1 && net.watch.app.userInfo.isEmpty, "no answer yet")
        net.advance(by: 2_000)
        #expect(net.runUntilQuiet())
        #expect(net.phoneValue("messages failed")?.int == 1)
        #expect(net.phoneValue("link-errors last") == "messageReplyTimedOut")
        #expect(net.phoneValue("watch-start via") == "userInfo")
        #expect(net.watch.app.messages.count == 1 && net.watch.app.userInfo.count == 1, "the same request on both channels")
        #expect(net.watch.app.userInfo.first?.info == net.watch.app.messages.first)
    }

    @Test func aStartAwaitingItsAnswerAtACrashGoesAgainAsUserInfo() throws {
        let net = try makePhoneNetwork(seed: 24, start: F.local("Asia/Tokyo", 2026, 6, 1, 6, 55))
        net.onWatch("answers off")
        net.acceptRunPrompt(day: Self.june1, calendar: Self.tokyo, settle: false)
        #expect(net.phoneValue("watch-start pending")?.int == 1)
        net.advance(by: 1_000)
        try net.crash(.phone)
        #expect(net.runUntilQuiet())
        #expect(net.phoneValue("watch-start pending")?.int == 0)
        #expect(net.phoneValue("watch-start byUserInfo")?.int == 1)
        #expect(net.watch.app.userInfo.count == 1)
    }

    // MARK: - Complication

    @Test func the51stPushOfALocalDayGoesAsUserInfoAndTheBudgetResetsAtMidnight() throws {
        let net = try makePhoneNetwork(seed: 25, start: F.local("Asia/Tokyo", 2026, 6, 1, 23, 30))
        net.onPhone("authorize grant all")
        #expect(net.phoneValue("complication remaining")?.int == 50)
        for i in 1...51 {
            net.onPhone("steps 10")
            // The first new steps start the observer, whose delivery pushes (the next is an hour later).
            if i > 1 { net.onPhone("complication push") }
            if i == 50 { #expect(net.phoneValue("complication remaining")?.int == 0) }
        }
        #expect(net.phoneValue("observer deliveries")?.int == 1)
        #expect(net.phoneValue("complication pushes sent")?.int == 50)
        #expect(net.phoneValue("complication pushes fallback")?.int == 1)
        #expect(net.phoneValue("effect last outcome") == "userInfo")
        let received = net.watch.app.userInfo
        #expect(received.filter(\.isComplication).count == 50)
        #expect(received.last.map { !$0.isComplication } == true)
        #expect(received.allSatisfy { $0.info["complication"]?["todaySteps"] != nil }, "one shape on both channels")
        #expect(received.last?.info["complication"]?["todaySteps"]?.int == 510, "the last push carries the latest steps")
        // Local midnight in Tokyo: a new day, a new budget.
        net.advance(to: F.local("Asia/Tokyo", 2026, 6, 2, 0, 0) + 1_000)
        #expect(net.phoneValue("complication remaining")?.int == 50)
        net.onPhone("complication push")
        #expect(net.phoneValue("complication pushes sent")?.int == 51)
        // Off the watch face: the call fails at once and nothing is sent.
        net.onWatch("face off")
        #expect(net.phoneValue("complication remaining")?.int == 0)
        net.onPhone("complication push")
        #expect(net.phoneValue("complication pushes failed")?.int == 1)
        #expect(net.phoneValue("link-errors last") == "invalidParameter")
        #expect(net.watch.app.userInfo.count == 52)
    }

    // MARK: - Files

    @Test func theWatchSampleFileIsKeptAndDecoded() throws {
        let net = try makePhoneNetwork(seed: 26, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        net.onWatch("samplefile w1 300")
        #expect(net.runUntilQuiet())
        #expect(net.phoneValue("files received count")?.int == 1)
        #expect(net.phoneValue("files last name") == "w1.samples.plist")
        #expect(net.phoneValue("files last workout") == "w1")
        #expect(net.phoneValue("files last samples")?.int == 300)
        #expect(net.phoneValue("files last error") == "—")
        let bytes = try net.phoneFiles.readAll("workouts/w1.samples.plist")
        #expect(WorkoutSampleFile.decode(bytes) == .success(net.watch.app.sentFiles["w1"]!))
        #expect(net.phoneFiles.list(LinkSession.inboxDirectory).isEmpty)
    }

    /// A file the phone cannot decode is kept with `decode`'s error (the phone reads a valid
    /// file for its id and count alone, and any other in full).
    @Test func anUndecodableSampleFileIsKeptWithDecodesError() throws {
        let net = try makePhoneNetwork(seed: 26, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        net.onWatch("samplefile w1 300 cut")
        #expect(net.runUntilQuiet())
        #expect(net.phoneValue("files received count")?.int == 1)
        let bytes = try net.phoneFiles.readAll("workouts/w1.samples.plist")
        guard case .failure(let e) = WorkoutSampleFile.decode(bytes) else {
            Issue.record("a file without its last byte does not decode")
            return
        }
        #expect(net.phoneValue("files last error") == .string(e.description))
        #expect(net.phoneValue("files last workout") == "—")
        #expect(net.phoneValue("files last samples") == "—")
    }

    @Test func aPhoneCrashMidFileResumesFromItsCommittedOffsetAndDeliversOnce() throws {
        let net = try makePhoneNetwork(seed: 27, start: F.local("Asia/Tokyo", 2026, 6, 1, 8)) { c in
            c.fileChunkBytes = 1_024
            c.fileSyncIntervalBytes = 4_096
            c.fileAckIntervalBytes = 2_048
        }
        net.faults.bandwidthBytesPerSecond = 2_000  // 2,000 B/s: about half a second a chunk
        #expect(net.command(.watch, "samplefile w2 3000").isOK)
        let size = try #require(net.watchFiles.size("outgoing/w2.samples.plist"))
        #expect(size > 20_000)
        let halfwayDeadline = net.now + 600_000  // a stalled transfer fails below instead of hanging
        while net.phone.ctx.session.stats.files.bytesReceived < size / 2, net.now < halfwayDeadline { net.advance(by: 250) }
        try net.crash(.phone)
        #expect(net.runUntilQuiet(maxMs: 600_000))
        #expect(net.phoneValue("files received count")?.int == 1)
        #expect(net.phoneValue("files last samples")?.int == 3000)
        let resent = net.phone.ctx.session.stats.files.bytesReceived
        #expect(resent > 0 && resent <= size / 2 + 4_096 + 1_024, "resumed near where it was, not from 0 (\(resent) of \(size))")
        let bytes = try net.phoneFiles.readAll("workouts/w2.samples.plist")
        #expect(WorkoutSampleFile.decode(bytes) == .success(net.watch.app.sentFiles["w2"]!))
    }

    // MARK: - Live workout and context

    @Test func aLiveWorkoutEndsWhenItsSavedRecordArrivesAfterMissingTheStop() throws {
        let net = try makePhoneNetwork(seed: 28, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        net.onWatch(#"message {"type": "workout.liveMetrics", "workoutID": "w3", "state": "running", "heartRateBpm": 150, "startMs": 1}"#)
        #expect(net.phoneValue("live workout state") == "running")
        #expect(net.phoneValue("live workout hr")?.doubleValue == 150)
        #expect(net.phoneValue("messages received")?.int == 1)
        net.setLink(up: false)
        net.runUntilQuiet(maxMs: 10_000)
        net.onWatch("workout w3 ended 1")
        #expect(net.phoneValue("live workout state") == "running", "out of range: nothing arrived yet")
        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(net.phoneValue("live workout state") == "ended")
    }

    @Test func aLiveWorkoutEndsWhenTheWatchReportsNoWorkoutSession() throws {
        let net = try makePhoneNetwork(seed: 30, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        let metrics = #"message {"type": "workout.liveMetrics", "workoutID": "w4", "state": "running", "startMs": 1}"#
        net.onWatch("session on")
        net.onWatch(metrics)
        // Out of range and back with the session still there: the live view goes on.
        net.setLink(up: false)
        net.runUntilQuiet(maxMs: 10_000)
        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(net.phoneValue("live workout state") == "running")
        // The watch loses its session without a word (its store was reset) while out of range:
        // its app state at the reconnection ends the live view; nothing was saved.
        net.setLink(up: false)
        net.runUntilQuiet(maxMs: 10_000)
        net.onWatch("session off")
        #expect(net.phoneValue("live workout state") == "running", "out of range: nothing arrived yet")
        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(net.phoneValue("live workout state") == "ended")
        #expect(net.phoneValue("workouts")?.int == 0)
        // The same while connected.
        net.onWatch("session on")
        net.onWatch(metrics)
        #expect(net.phoneValue("live workout state") == "running")
        net.onWatch("session off")
        #expect(net.phoneValue("live workout state") == "ended")
    }

    @Test func everySettingsChangeIsSentAsTheApplicationContext() throws {
        let net = try makePhoneNetwork(seed: 29, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        func watchSees() -> PlistValue? { net.watch.ctx.receivedApplicationContext["settings"] }
        #expect(watchSees()?["stepGoal"]?.int == 10_000, "the first launch sets the snapshot")
        #expect(watchSees()?["language"] == "ja")
        net.onPhone("settings step-goal 12000")
        #expect(watchSees()?["stepGoal"]?.int == 12_000)
        #expect(net.phoneValue("context settings step-goal")?.int == 12_000)
        let sent = try #require(net.phoneValue("context sent")?.int)
        net.onPhone("settings notifications on")  // unchanged: no new context
        #expect(net.phoneValue("context sent")?.int == sent)
        net.onWatch("setting stepGoal 9000")  // the watch's edit comes back as the snapshot too
        #expect(watchSees()?["stepGoal"]?.int == 9_000)
        #expect(net.phoneValue("context sent")?.int == sent + 1)
    }
}
