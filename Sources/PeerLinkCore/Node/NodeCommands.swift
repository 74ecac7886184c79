
/// The commands every node answers before its app sees them (`NodeEngine.engineCommand`,
/// NodeEngine+Commands.swift and NodeEngine+Connectivity.swift), for `help` and the reference
/// in docs/PHONE.md (`sync-sim commands node --markdown`).
///
/// The engine's dispatch stays its own switch: some of its verbs depend on how many words
/// follow (`context` alone is the engine's, `complication push` without a payload the
/// phone app's). `NodeCommandsTests` checks that every row here is answered by the engine.
public enum NodeCommands {
    typealias Row = CommandSynopsis

    /// The engine's commands, in the reference's order.
    public static let engine = CommandSection(
        title: LocalizedText(ja: "ノードのコマンド（iPhone・Apple Watch 共通）:", en: "node commands (both devices):"),
        rows: [
            Row("status", ja: "ノードの状態（接続、カウンター、期限）をJSONで", en: "the node's state as JSON (connection, counters, deadlines)"),
            Row("digest", ja: "複製された状態のダイジェスト", en: "the digest of the replicated state"),
            Row("records", "COLLECTION", ja: "コレクションのレコード", en: "the records of a collection"),
            Row("query", "PATH…", ja: "状態の値を1つJSONで（一覧は docs/PHONE.md・docs/WATCH.md）",
                en: "one value of the node's state as JSON (the paths: docs/PHONE.md, docs/WATCH.md)"),
            Row("message send", "JSON [--no-reply] [--timeout 5s]", ja: "sendMessage（返信は後で届きます）", en: "sendMessage (its reply comes later)",
                detail: "`sendMessage`; the reply comes later as `! Reply to message m3: {…}`, a failure as the WCError code and name "
                    + "(`7007 notReachable`, `7012 messageReplyTimedOut`, `7009 payloadTooLarge`…) — at once when it cannot leave "
                    + "(unreachable, too large), later otherwise. `--no-reply` expects none (only a failure is told); `--timeout` sets "
                    + "this message's reply timeout (default 5 s, at most 10 min)"),
            Row("context set", "JSON", ja: "updateApplicationContext", en: "updateApplicationContext",
                detail: "`updateApplicationContext`. The phone app sets its own settings context again after its next settings change"),
            Row("context", ja: "送ったコンテキストと受け取ったコンテキスト", en: "the context sent and the one received",
                detail: "the application context sent and the one received (`receivedApplicationContext`)"),
            Row("userinfo send", "JSON", ja: "transferUserInfo（配信の結果は後で届きます）", en: "transferUserInfo (its delivery is told later)",
                detail: "`transferUserInfo`; its delivery (or failure) is told later"),
            Row("outbox", ja: "未配信の転送の一覧", en: "the outstanding transfers",
                detail: "every outstanding transfer in the order it is sent (complication user info first): "
                    + "`u7 · seq 7 · 120 B · 2 min 5 s ago · ordinary · by hand`, who queued it being `by hand`, `app` or "
                    + "`sync data` (the replica's deltas, `peerlink.sync`)"),
            Row("userinfo cancel", "SEQ", ja: "未配信の転送を取り消す", en: "cancels an outstanding transfer",
                detail: "`cancel()` of an outstanding transfer (`7` or `u7`), unless it was already delivered (then its delivery "
                    + "is told); the replica's deltas cannot be cancelled"),
            Row("file send", "PATH", ja: "ファイルフォルダーのファイルを transferFile で送る", en: "transferFile of a file in the node's files folder",
                detail: "`transferFile` of a file inside the node's files folder (`<state>/files/PATH`; absolute paths and `..` are refused)"),
            Row("files", ja: "未完了のファイル転送と進捗", en: "the outstanding file transfers and their progress",
                detail: "the outstanding file transfers with their progress in % (the receiver acknowledges every 1 MiB)"),
            Row("file cancel", "ID", ja: "ファイル転送を取り消す", en: "cancels a file transfer", detail: "cancels an outstanding file transfer (`file cancel f2`)"),
            Row("complication push", "JSON", ja: "transferCurrentComplicationUserInfo（iPhoneのみ）",
                en: "transferCurrentComplicationUserInfo (phone only)",
                detail: "phone: `transferCurrentComplicationUserInfo` of that payload (the budget and the fall-back to ordinary "
                    + "user info as in the link table below); the watch refuses it"),
            Row("link", ja: "セッションの状態と最近のエラー", en: "the session and the recent errors",
                detail: "the session (connected, reachable, paired), what is outstanding, the frame counters and the latest 10 "
                    + "WatchConnectivity errors with their local time and what failed (`m3`, `u7`, `f2`, `context`…)"),
            Row("wc file", "NAME BYTES", ja: "相手のアプリが知らないファイルを作って送る", en: "writes and sends a file the peer's app does not know",
                detail: "writes BYTES bytes to `outgoing/NAME` in the node's files and sends them with `transferFile` (docs/SCENARIOS.md)"),
            Row("wc replies", "withhold|answer", ja: "アプリのメッセージへの返信を止める・戻す", en: "withholds the app's replies to messages, or sends them again",
                detail: "the app's replies to messages are never sent (an app stuck in its reply handler), or sent again as usual"),
        ],
        notes: LocalizedText(ja: "（あとから届く返信や転送の結果は「! …」の行に出ます）", en: "(replies and transfer outcomes come later as \"! …\" lines)"))
}
