import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import Testing

/// The screens of a watch workout agree with what the session does, on both devices: the
/// watch offers only the calls it allows, the phone's live time is the watch's, and the phone
/// does not call an ended workout "in progress".
@Suite("Workout screens agree with behaviour")
struct WorkoutScreensTests {
    static let second: EpochMs = 1_000

    @Test func thePhonesElapsedTimeIsTheSavedWorkoutsAndAnEndedWorkoutIsNotInProgress() throws {
        let net = try HandConnectivityTests.makeNetwork(language: .ja)
        let t0 = net.now
        #expect(net.command(.watch, "workout start running").isOK)
        net.advance(to: t0 + 51 * Self.second)
        #expect(net.command(.watch, "hr 142").isOK)
        net.advance(to: t0 + 60 * Self.second)
        // The watch sent nothing since 0:51; the phone counts on while the workout runs.
        let running = try #require(HandConnectivityTests.value(net, .phone, "live workout elapsed")?.intValue)
        #expect((59_900...60_000).contains(running), "phone shows \(running) ms at 1:00")
        #expect(net.command(.phone, "show dashboard").text.contains("ワークアウト中: ランニング 記録中 142 bpm"))
        net.advance(to: t0 + 67 * Self.second)
        let saved = net.command(.watch, "workout end")
        #expect(saved.text.contains("経過時間 01:07"), "\(saved.text)")
        #expect(net.runUntilQuiet())
        #expect(HandConnectivityTests.value(net, .watch, "workouts last elapsed") == 67_000)
        #expect(HandConnectivityTests.value(net, .phone, "live workout elapsed") == 67_000)
        let dashboard = net.command(.phone, "show dashboard").text
        #expect(dashboard.contains("ワークアウト終了: ランニング 終了 142 bpm") && dashboard.hasSuffix(" 01:07"), "\(dashboard)")
        #expect(!dashboard.contains("ワークアウト中"))
        #expect(net.command(.phone, "show workouts").text.contains("ランニング 終了 経過時間 01:07"))
    }

    @Test func aPausedWorkoutOffersOnlyResumeAndAStoppedOneOnlyEnd() throws {
        let net = try HandConnectivityTests.makeNetwork(language: .ja)
        #expect(net.command(.watch, "workout start running").isOK)
        net.advance(by: 10 * Self.second)
        let paused = net.command(.watch, "workout pause")
        #expect(paused.text.hasSuffix("\n[再開]"), "\(paused.text)")
        #expect(paused.value["buttons"] == ["resume"])
        #expect(!net.command(.watch, "workout stop").isOK, "the session refuses what the screen does not offer")
        #expect(net.command(.watch, "workout resume").text.hasSuffix("\n[一時停止] [停止]"))
        #expect(net.command(.watch, "workout stop").text.hasSuffix("\n[終了]"))
        #expect(net.command(.watch, "workout end").isOK)
    }
}

/// The run prompt's request meets a workout on the watch: a stopped one is saved and the run
/// starts; a running one is the user's, and the watch says so instead of answering ok.
@Suite("A run prompt and the watch's workout")
struct RunPromptAndWatchWorkoutTests {
    /// Motion samples at 07:00, 07:01 and 07:02 (a run), then the prompt accepted.
    static func acceptRunPrompt(_ net: PhoneWatchNetwork) {
        for (minute, line) in [(0, "motion running medium"), (1, "motion running high"), (2, "motion running high")] {
            net.advance(to: HandConnectivityTests.start + EpochMs(30 + minute) * 60_000)
            #expect(net.command(.phone, line).isOK)
        }
        #expect(net.command(.phone, "notification respond last accept").isOK)
    }

    @Test func aStoppedWorkoutIsSavedAndTheRunStartsAndThePersonIsToldSo() throws {
        let net = try HandConnectivityTests.makeNetwork(language: .ja)
        #expect(net.command(.watch, "workout start walking").isOK)
        net.advance(by: 10 * 60_000)
        #expect(net.command(.watch, "workout stop").isOK)
        Self.acceptRunPrompt(net)
        #expect(net.runUntilQuiet())
        #expect(HandConnectivityTests.value(net, .watch, "workout state") == "running")
        #expect(HandConnectivityTests.value(net, .watch, "workouts last activity") == "walking")
        let notices = net.phone.drainNotices()
        #expect(notices.contains { $0.hasPrefix("Apple Watch: 停止していたワークアウト workout-") && $0.hasSuffix("を保存して、ランニングのワークアウトを開始しました") },
                "\(notices)")
    }

    @Test func aRunningWorkoutRefusesTheRequestAndTheReplySaysWhy() throws {
        let net = try HandConnectivityTests.makeNetwork(language: .en)
        #expect(net.command(.watch, "workout start cycling").isOK)
        let id = try #require(HandConnectivityTests.value(net, .watch, "workout id")?.stringValue)
        #expect(net.runUntilQuiet())
        _ = net.phone.drainNotices()
        #expect(net.command(.phone, #"message send {"startWorkout": {"activity": "running", "startMs": \#(net.now)}}"#).isOK)
        #expect(net.runUntilQuiet())
        let notices = net.phone.drainNotices()
        #expect(notices.count == 1 && notices[0].contains(#"{"error":"workout active","state":"running","workoutID":"\#(id)"}"#), "\(notices)")
        #expect(HandConnectivityTests.value(net, .watch, "workout activity") == "cycling")
    }
}
