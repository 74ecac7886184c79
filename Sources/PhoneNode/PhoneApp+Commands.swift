import PeerLinkCore
import CountdownDomain

/// The phone app's commands: one table drives `onCommand`'s dispatch, `readOnlyReply`
/// (`show SCREEN --svg`), `show help` and the command reference in docs/PHONE.md
/// (`sync-sim commands phone --markdown`). The handlers are in the feature files.
extension PhoneApp {
    public static let commands = CommandTable<PhoneApp>(
        title: LocalizedText(ja: "iPhone アプリのコマンド:", en: "phone app commands:"),
        notes: LocalizedText(
            ja: "T: HH:MM[:SS]、オフセット付きのISO日時、またはエポックミリ秒\n" + CountdownCommands.tableNotes.ja,
            en: "T: HH:MM[:SS], ISO date-time with offset, or epoch ms\n" + CountdownCommands.tableNotes.en),
        healthRows + appRows + goalRows + showRows)

    // MARK: - Health and motion

    static let healthRows: [Command<PhoneApp>] = [
        Command("steps", "N [--from T] [--to T] [--source phone|watch]", ja: "歩数のサンプル（0〜100,000歩）", en: "a step sample (0…100,000)") {
            $0.sampleCommand($1, &$2)
        },
        Command("energy", "KCAL [--from T] [--to T] [--source phone|watch]", ja: "消費カロリーのサンプル（0〜10,000 kcal）",
                en: "an active-energy sample (0…10,000 kcal)") { $0.sampleCommand($1, &$2) },
        Command("hr", "BPM [--at T] [--source phone|watch]", ja: "心拍数（20〜250 bpm）", en: "a heart-rate reading (20…250 bpm)") {
            $0.sampleCommand($1, &$2)
        },
        Command("sleep", "STAGE FROM TO [--source phone|watch]", ja: "睡眠のサンプル", en: "a sleep sample",
                detail: "a sleep sample; STAGE `inBed`, `asleepUnspecified`, `awake`, `asleepCore`, `asleepDeep`, `asleepREM` "
                    + "(or `inbed`, `core`, `deep`, `rem`…)") { $0.sampleCommand($1, &$2) },
        Command("authorize", "grant|deny TYPE|all", ja: "HealthKit 連携（読み取りの許可・拒否）", en: "read authorization",
                detail: "read authorization; TYPE `steps`, `activeEnergy`, `heartRate`, `sleepAnalysis` (`energy`, `hr`, `sleep`)") {
            $0.authorizeCommand($1.words, &$2)
        },
        Command("motion", "FLAGS CONFIDENCE [--at T]", ja: "Core Motion のサンプル", en: "a Core Motion sample",
                detail: "a Core Motion sample: FLAGS from `stationary walking running automotive cycling unknown` joined by `+`; "
                    + "CONFIDENCE `low medium high`") { $0.motionCommand($1, &$2) },
        Command("live", "STATE [--activity A] [--hr BPM] [--kcal KCAL] [--elapsed S] [--start T]",
                ja: "ウォッチからライブ指標のメッセージが届いたことにする", en: "as if the watch sent a live-metrics message",
                detail: "as if the watch sent a live-metrics message (below)") { $0.liveCommand($1, &$2) },
    ]

    // MARK: - The watch, settings, notifications, export, the app

    static let appRows: [Command<PhoneApp>] = [
        Command("complication push", ja: "App Groupのデータをウォッチに今送る", en: "pushes the App Group snapshot to the watch now",
                detail: "refresh the App Group snapshot and push it to the watch now (`transferCurrentComplicationUserInfo`)") {
            $0.complicationCommand($1.words, &$2)
        },
        Command("complication", ja: "コンプリケーションの送信の残り", en: "the complication transfer budget") { $0.complicationCommand($1.words, &$2) },
        Command("settings step-goal", "N", ja: "歩数目標（1,000〜100,000歩）", en: "the step goal (1,000–100,000)",
                detail: "1,000…100,000; anything else is refused: 「歩数目標は1,000〜100,000歩の範囲で設定してください」 / "
                    + "\"Set a step goal from 1,000 to 100,000 steps\"") { $0.settingsCommand($1.words, &$2) },
        Command("settings", "notifications|weekly-summary|run-detection on|off", ja: "通知のスイッチ（全体と機能ごと）",
                en: "the switches (master switch and per feature)") { $0.settingsCommand($1.words, &$2) },
        Command("notification respond", "ID|last accept|dismiss", ja: "届いた通知に応える", en: "answers a delivered notification",
                detail: "answer a delivered notification (ID e.g. `fitness.runDetected`)") { $0.notificationCommand($1.words, &$2) },
        Command("notifications", "[list]", ja: "通知の一覧（show notifications と同じ）", en: "the notifications (as `show notifications`)") {
            $0.notificationCommand($1.words, &$2)
        },
        Command("export csv", ja: "データをエクスポート", en: "exports the data as CSV",
                detail: "データをエクスポート: writes `<state>/exports/fitness-export-YYYY-MM-DD.csv`, prints the path") {
            $0.exportCommand($1.words, &$2)
        },
        Command("app", "foreground|background", ja: "アプリを開く・離れる", en: "the user opens / leaves the app",
                detail: "the user opens / leaves the app (the node starts in the background)") { $0.appCommand($1.words, &$2) },
        Command("widget tap", "small|medium|countdown", ja: "ウィジェットをタップする（アプリがリンク先の画面を開く）",
                en: "the user taps a widget (the app opens on its link's screen)",
                detail: "the user taps a widget: the app opens in the foreground with the entry's deep link and shows its screen "
                    + "(`fitness://dashboard` → dashboard, `countdown://list` → goals, `countdown://goal/<id>` → that goal)") {
            $0.widgetTapCommand($1.words, &$2)
        },
    ]

    // MARK: - Goals (the shared controller's rows)

    static let goalRows: [Command<PhoneApp>] = CountdownCommands.tableRows { $0.goalCommand($1.words, &$2) }

    // MARK: - Screens

    static let showRows: [Command<PhoneApp>] = [
        Command("show", screens.joined(separator: "|"), ja: "画面をテキストで（値はJSON）", en: "a screen as text (its value is the JSON)",
                detail: "the screen as text, the reply value its JSON: `dashboard`, `history`, `settings`, `widgets`, `notifications`, "
                    + "`goals`, `workouts` (each with its start, activity, state, elapsed time, energy and average heart rate), "
                    + "`live`, `effects`, `link`, `help`",
                readOnly: { $0.svgReply($1, $2) }) { $0.show(Array($1.words.dropFirst()), $2) },
        Command("show history", "[weekly|monthly]", ja: "履歴（週・月）", en: "the history tab, weekly or monthly",
                readOnly: { $0.svgReply($1, $2) }) { $0.show(Array($1.words.dropFirst()), $2) },
        Command("show", "\(svgScreens.joined(separator: "|")) --svg", ja: "画面をSVGで（読み取りのみ）", en: "the screen drawn as SVG (read-only)",
                detail: "the screen drawn: the reply value is one SVG document; it only reads (docs/REPORT.md)",
                readOnly: { $0.svgReply($1, $2) }) { $0.show(Array($1.words.dropFirst()), $2) },
        Command("workouts", ja: "ワークアウトの一覧（show workouts と同じ）", en: "the workouts (as `show workouts`)") { app, _, ctx in
            app.show(["workouts"], ctx)
        },
    ]

    /// The app's commands and the engine's, for `show help`, in `language`.
    public static func helpText(_ language: AppLanguage) -> String {
        CommandSection.helpText([commands.section, NodeCommands.engine], language)
    }
}
