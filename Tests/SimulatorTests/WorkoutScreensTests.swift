import PeerLink
import Shared
import Simulator
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
