import PeerLinkCore
import PhoneNode
import Testing

@Suite("Phone settings and sync")
struct PhoneSettingsTests {
    typealias F = PhoneFixture

    @Test(arguments: [AppLanguage.ja, .en])
    func stepGoalOutsideItsRangeIsRefusedWithAClearMessage(language: AppLanguage) throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 1, 10), language: language)
        let message = language == .ja
            ? "歩数目標は1,000〜100,000歩の範囲で設定してください" : "Set a step goal from 1,000 to 100,000 steps"
        for bad in ["999", "100001", "0", "-5", "ten"] {
            let reply = p.run("settings step-goal \(bad)")
            #expect(!reply.isOK)
            #expect(reply.text == message)
        }
        #expect(p.q("settings step-goal")?.int == 10_000)
        #expect(p.q("count settings")?.int == 0)  // nothing was written
        p.ok("settings step-goal 1000")
        #expect(p.q("settings step-goal")?.int == 1_000)
        p.ok("settings step-goal 100000")
        #expect(p.q("settings step-goal")?.int == 100_000)
    }

    @Test func settingsScreenShowsTheSeedRowsAndTheConnectionStatus() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 1, 10))
        p.ok("authorize grant steps")
        p.ok("authorize deny heartRate")
        p.ok("settings notifications off")
        let text = p.ok("show settings").text
        #expect(text.contains("歩数目標の変更: 10,000歩"))
        #expect(text.contains("通知の ON/OFF: OFF"))
        #expect(text.contains("HealthKit 連携状態の確認\n歩数: 連携済み\n消費カロリー: 未設定\n心拍数: 許可されていません"))
        #expect(text.contains("データをエクスポート"))
        #expect(p.q("settings notifications") == false)
    }

    @Test func onlyTheChangedSettingFieldIsWrittenSoConcurrentChangesBothSurvive() throws {
        let nodes = try LinkedNodes(start: F.local("Asia/Tokyo", 2026, 6, 1, 10))
        nodes.connect()
        nodes.phoneRun("settings run-detection on")
        nodes.disconnect()
        nodes.phone.ok("settings step-goal 7000")
        // The watch turns notifications off meanwhile (a field write of its own).
        let reply = nodes.watch.command(NodeCommand(line: "setting notifications false")!, now: nodes.phone.now)
        #expect(reply.isOK)
        nodes.connect()
        #expect(nodes.converged)
        #expect(nodes.phone.q("settings step-goal")?.int == 7_000)
        #expect(nodes.phone.q("settings notifications") == false)
        #expect(nodes.phone.q("settings run-detection") == true)
        // The merged switch removed the weekly summary.
        #expect(nodes.phone.q("notification weekly") == "none")
    }

    @Test func concurrentGoalEditsConvergeAndADeleteWins() throws {
        let nodes = try LinkedNodes(start: F.local("Asia/Tokyo", 2026, 6, 1, 10))
        nodes.connect()
        for (t, d) in [("A", "2026-07-01"), ("B", "2026-08-01"), ("C", "2026-09-01")] { nodes.phoneRun("goal add \(t) --date \(d)") }
        #expect(nodes.converged)
        nodes.disconnect()
        // Offline: the phone renames A, deletes B and moves C to the top; the watch deletes A
        // and renames C.
        nodes.phone.ok("goal edit goal-1 --title A2")
        nodes.phone.ok("goal delete goal-2 --confirm")
        nodes.phone.ok("goal move goal-3 1")
        _ = nodes.watch.command(NodeCommand(line: "delete goal-1")!, now: nodes.phone.now)
        _ = nodes.watch.command(NodeCommand(line: "rename goal-3 C-watch")!, now: nodes.phone.now)
        nodes.connect()
        #expect(nodes.converged)
        // A: deleted on the watch while edited on the phone → deleted (a tombstone wins).
        // C: the move wrote only the priority, so the watch's title survives it.
        #expect(nodes.phone.q("goals titles") == ["C-watch"])
        #expect(nodes.phone.q("goal goal-3 position")?.int == 1)
        #expect(nodes.phone.q("widget countdown title") == "C-watch")
    }

    @Test func aLiveWorkoutFromTheWatchIsShown() throws {
        let nodes = try LinkedNodes(start: F.local("Asia/Tokyo", 2026, 6, 1, 7, 20))
        nodes.connect()
        #expect(nodes.phone.q("live workout state") == "none")
        nodes.watchRun(#"message {"type": "workout.liveMetrics", "workoutID": "w1", "state": "running", "activity": "running", "heartRateBpm": 142, "energyKcal": 87.3, "elapsedMs": 1200000}"#)
        #expect(nodes.phone.q("live workout state") == "running")
        #expect(nodes.phone.q("live workout hr")?.doubleValue == 142)
        #expect(nodes.phone.ok("show dashboard").text.contains("ワークアウト中: ランニング 記録中 142 bpm 87.3 kcal 20:00"))
        // While it runs, a detected run does not prompt.
        for m in 0..<3 { nodes.phone.ok("motion running high --at 07:1\(m)") }
        #expect(nodes.phone.q("notifications delivered count")?.int == 0)
        nodes.watchRun(#"message {"type": "workout.mirroringStopped", "workoutID": "w1"}"#)
        #expect(nodes.phone.q("live workout state") == "ended")
    }
}
