import PeerLinkCore

/// The commands of a node process's shell itself (NodeProcess+Control.swift: the clock, the
/// time zone, the log, connections, quitting), for `help` and the reference in README.md
/// (`sync-sim commands shell --markdown`). `help` lists the engine's commands and these.
///
/// The shell's dispatch stays its own switch (`NodeProcess.shellCommand`), before the engine's.
public enum ShellCommands {
    typealias Row = CommandSynopsis

    public static let section = CommandSection(
        title: LocalizedText(ja: "シェルのコマンド:", en: "shell commands:"),
        rows: [
            Row("clock", "[set MS|advance MS [idle-link]|offset MS]", ja: "時計（単調時計と壁時計）", en: "the clock (monotonic and wall)",
                detail: "the clock; `set` / `advance` move a `--virtual-clock` (never back; with `idle-link` the time passed "
                    + "over a healthy idle link, its heartbeats taken as exchanged), `offset` shifts the wall clock from the "
                    + "monotonic one (a wall-clock fault)"),
            Row("tz", "ZONE", ja: "端末のタイムゾーンを変える（旅行）", en: "changes the device's time zone (travel)"),
            Row("log", "[level debug|info|warning|error|off]", ja: "ログの場所と標準エラー出力のレベル", en: "where the log is, what reaches standard error"),
            Row("disconnect", ja: "接続をすべて切る", en: "drops every connection"),
            Row("quit", ja: "終了する（exit も同じ）", en: "quits (so does `exit`)"),
            Row("help", ja: "この一覧", en: "this list"),
        ],
        notes: LocalizedText(ja: "アプリのコマンドは show help で表示します", en: "the app's: see `show help`"))

    /// `help`: the engine's commands and the shell's, in `language`.
    public static func helpText(_ language: AppLanguage) -> String {
        CommandSection.helpText([NodeCommands.engine, section], language)
    }
}
