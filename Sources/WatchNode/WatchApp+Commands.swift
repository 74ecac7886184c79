import PeerLinkCore
import CountdownDomain

/// The watch app's commands: one table drives `onCommand`'s dispatch, `readOnlyReply`
/// (`show SCREEN --svg`), `show help` and the command reference in docs/WATCH.md
/// (`sync-sim commands watch --markdown`). The handlers are in the feature files.
extension WatchApp {
    public static let commands = CommandTable<WatchApp>(
        title: LocalizedText(ja: "Apple Watch アプリのコマンド:", en: "watch app commands:"),
        notes: LocalizedText(
            ja: "TYPE: running、walking、cycling。DURATION: 30s、5m、1h30m\n" + CountdownCommands.tableNotes.ja,
            en: "TYPE: running, walking, cycling; DURATION: 30s, 5m, 1h30m\n" + CountdownCommands.tableNotes.en),
        workoutRows + sampleRows + goalRows + lifecycleRows + showRows)

    // MARK: - Workouts

    static let workoutRows: [Command<WatchApp>] = [
        Command("crown", "+1|-1", ja: "種類を選ぶ", en: "scrolls the activity picker",
                detail: "scrolls running → walking → cycling, clamped at both ends") { $0.crownCommand($1.words, &$2) },
        Command("location", "indoor|outdoor", ja: "ワークアウトの場所", en: "the workout location") { $0.locationCommand($1.words, &$2) },
        Command("workout prepare", "[TYPE]", ja: "準備完了のセッション（記録はしない）", en: "a new session in prepared (records nothing)",
                detail: "a new session in `prepared` (keeps the app alive, records nothing)") { $0.workoutCommand($1.words, &$2) },
        Command("workout start", "[TYPE]", ja: "ワークアウトを開始", en: "starts a workout",
                detail: "starts the prepared session (same TYPE or none), else a new session; a session already active is ended "
                    + "with `HKErrorAnotherWorkoutSession` and saved") { $0.workoutCommand($1.words, &$2) },
        Command("workout", "pause|resume|stop|end", ja: "一時停止・再開・停止・終了", en: "session calls",
                detail: "session calls; illegal ones answer e.g. 「一時停止できません: ワークアウトは「準備完了」です」 / "
                    + "`cannot pause: session is prepared`. The screen offers only calls the session allows: [開始] before it runs, "
                    + "[一時停止] [停止] while running, only [再開] while paused (a paused session is resumed before it stops or ends), "
                    + "[終了] once stopped") { $0.workoutCommand($1.words, &$2) },
        Command("workout discard", ja: "開始しなかったセッションを捨てる", en: "drops a prepared session that never started") {
            $0.workoutCommand($1.words, &$2)
        },
    ]

    // MARK: - Samples and settings

    static let sampleRows: [Command<WatchApp>] = [
        Command("hr", "BPM", ja: "心拍数のサンプル（0 < BPM ≤ 250）", en: "one heart-rate sample now (0 < BPM ≤ 250)") {
            $0.heartRateCommand($1.words, &$2)
        },
        Command("energy", "KCAL [--over DURATION]", ja: "消費カロリーのサンプル", en: "active energy ending now",
                detail: "active energy ending now; without `--over` it starts where the last energy sample ended, or at the "
                    + "collection start or last resume (latest of these)") { $0.energyCommand($1, &$2) },
        Command("steps", "N [--over DURATION]", ja: "歩数のサンプル（0〜100,000歩）", en: "a step sample (0…100,000)",
                detail: "watch step sample of N (0…100,000) over the last minute (or DURATION) ending now, written to the "
                    + "replicated state at once") { $0.stepsCommand($1, &$2) },
        Command("settings step-goal", "N", ja: "歩数目標（1,000〜100,000歩）", en: "the shared step goal (1,000–100,000)",
                detail: "the shared step goal, 1,000–100,000 (writes only the `stepGoal` field)") { $0.settingsCommand($1.words, &$2) },
    ]

    // MARK: - Lifecycle

    static let lifecycleRows: [Command<WatchApp>] = [
        Command("app", "foreground|background|wrist-down|wrist-up", ja: "アプリの状態（手首を下げる・上げる）", en: "presence",
                detail: "presence; wrist-up brings back a dimmed app, not one the user left") { $0.appCommand($1.words, &$2) },
        Command("runtime start", "self-care|mindfulness|physical-therapy|smart-alarm", ja: "延長ランタイムセッションを開始",
                en: "starts an extended runtime session",
                detail: "extended runtime session: `self-care` (10 min), `mindfulness` (1 h), `physical-therapy` (1 h), "
                    + "`smart-alarm` (30 min); only from the foreground, one at a time") { $0.runtimeCommand($1.words, &$2) },
        Command("runtime stop", ja: "延長ランタイムセッションを終える", en: "ends the extended runtime session") {
            $0.runtimeCommand($1.words, &$2)
        },
    ]

    // MARK: - Goals (the shared controller's rows)

    static let goalRows: [Command<WatchApp>] = CountdownCommands.tableRows { $0.goalCommand($1.words, &$2) }

    // MARK: - Screens

    static let showRows: [Command<WatchApp>] = [
        Command("show", "workout|picker|rings|complication|goals|app|link|help", ja: "画面をテキストで（値はJSON）",
                en: "a screen as text (its value is the JSON)", readOnly: { $0.svgReply($1, $2) }) { app, c, ctx in
            app.showCommand(c.words, ctx)
        },
        Command("show", "\(svgScreens.joined(separator: "|")) --svg", ja: "画面をSVGで（読み取りのみ）", en: "the screen drawn as SVG (read-only)",
                detail: "the screen drawn: the reply value is one SVG document; read-only (docs/REPORT.md)",
                readOnly: { $0.svgReply($1, $2) }) { app, c, ctx in app.showCommand(c.words, ctx) },
    ]

    /// The app's commands and the engine's, for `show help`, in `language`.
    public static func helpText(_ language: AppLanguage) -> String {
        CommandSection.helpText([commands.section, NodeCommands.engine], language)
    }
}
