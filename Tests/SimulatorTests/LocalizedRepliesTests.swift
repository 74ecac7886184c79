import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import Testing

/// Every reply and refusal of both apps and of the engine's commands is in the device's
/// language: Japanese in `ja` (the seeds' wording where they give it), the same in English in
/// `en`. Each command below reaches one reply or refusal path, run through the real apps.
@Suite("Replies in the device's language")
struct LocalizedRepliesTests {
    /// `text` without the ids that are named after an instant (`workout-1780…`, `ph-1780…-1`),
    /// which are names, not times to read.
    static func withoutIDs(_ text: String) -> String {
        text.split(whereSeparator: { " []()（）\n".contains($0) })
            .filter { !$0.contains("workout-") && !$0.hasPrefix("ph-") }.joined(separator: " ")
    }

    /// True when `text` holds kana or kanji.
    static func hasJapanese(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }
    }

    static let watchCommands = [
        "crown x", "location moon", "workout", "workout fly", "workout start swimming", "workout pause", "workout discard",
        "hr x", "energy x", "energy 5 --over 5x", "steps x", "steps 200000", "steps 5 --over 9y", "settings x",
        "settings step-goal 5", "app x", "runtime start foo", "runtime stop", "show x", "frobnicate", "goal add",
        "goal edit goal-99 --title x", "goal confirm", "profile birth-date 2099-01-01",
        // A workout: its screens and its refusals.
        "workout start running", "hr 300", "hr 120", "energy 5", "workout pause", "energy 1", "workout pause", "workout stop",
        "workout resume", "show workout", "workout end", "workout resume",
        "app background", "show app", "show link", "show help", "show complication", "show rings", "show goals", "steps 100",
        "runtime start mindfulness", "show picker", "crown +1", "location indoor",
    ]

    static let phoneCommands = [
        "steps x", "steps 200000", "hr 300", "energy 20000", "sleep foo 23:00 07:00", "steps 5 --from 99:99",
        "steps 5 --from 2026-06-01T08:00:00+09:00 --to 2026-06-01T07:00:00+09:00", "steps 5 --source moon", "authorize x",
        "motion x y", "live", "live foo", "complication x", "settings x", "settings step-goal 5", "settings notifications maybe",
        "notification respond x accept", "notification x", "export x", "app x", "widget x", "widget tap small", "show x",
        "show history yearly", "frob", "goal add", "goal show goal-99", "records", "query nothing here",
        "message send", "userinfo cancel 99", "file send nope", "file cancel f9", "complication push {}",
        // Accepted commands.
        "app foreground", "motion running high", "settings notifications off", "settings step-goal 9000", "steps 100",
        "show link", "show help", "complication", "show workouts", "show effects", "link", "outbox", "files", "context",
        "goal add Trip --date 2026-07-01", "goals", "goal delete goal-1", "goal cancel", "authorize grant all",
        "show dashboard", "show history", "show history monthly", "show settings", "show widgets", "show notifications",
        "show goals", "live running --elapsed 30", "show live", "profile", "profile birth-date 1990-05-01", "export csv",
    ]

    @Test(arguments: [AppLanguage.ja, .en])
    func everyReplyOfBothAppsIsInTheDevicesLanguage(language: AppLanguage) throws {
        let net = try HandConnectivityTests.makeNetwork(language: language)
        for (role, commands) in [(DeviceRole.watch, Self.watchCommands), (.phone, Self.phoneCommands)] {
            for line in commands {
                let r = net.command(role, line)
                net.advance(by: 1_000)
                if language == .ja {
                    #expect(Self.hasJapanese(r.text), "\(role) `\(line)` answered in English: \(r.text)")
                } else {
                    #expect(!Self.hasJapanese(r.text), "\(role) `\(line)` answered in Japanese: \(r.text)")
                }
                #expect(!Self.withoutIDs(r.text).contains("178"), "\(role) `\(line)` shows epoch milliseconds: \(r.text)")
            }
        }
    }

    @Test func theSeedsWordingIsUsedForTheStepGoalAndTheRunPromptOnBothDevices() throws {
        let net = try HandConnectivityTests.makeNetwork(language: .ja)
        #expect(net.command(.watch, "settings step-goal 5").text == "歩数目標は1,000〜100,000歩の範囲で設定してください")
        #expect(net.command(.phone, "settings step-goal 5").text == "歩数目標は1,000〜100,000歩の範囲で設定してください")
        #expect(net.command(.watch, "workout pause").text == "一時停止できません: ワークアウトがありません")
        #expect(net.command(.watch, "frob").text == "不明なコマンドです: frob（show help で一覧を表示します）")
        #expect(net.command(.phone, "steps 200000").text == "歩数は1サンプルあたり0〜100,000歩で入力してください")
        #expect(net.command(.phone, "motion running high").text == "モーション: ランニング（信頼度: 高）")
    }

    @Test func timesInRepliesAreLocalDateTimes() throws {
        let net = try HandConnectivityTests.makeNetwork(language: .en)
        #expect(net.command(.watch, "runtime start mindfulness").text == "foreground, running, reachable; runtime mindfulness until 2026-06-01 08:00:00")
        let sample = net.command(.phone, "steps 100 --from 06:50 --to 07:00")
        #expect(sample.text.hasPrefix("Steps 100 (iPhone) 2026-06-01 06:50:00–07:00:00 [ph-"), "\(sample.text)")
        #expect(sample.value["start"] == 1_780_264_200_000, "JSON keeps numbers")
    }
}
