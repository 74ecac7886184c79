
/// Texts of the WatchConnectivity commands a person types at a node (`message send`,
/// `userinfo send`, `file send`…), and of what they are told later (replies, finished
/// transfers, what the peer sent by hand). `m3`, `u7`, `f2` name a message, a user-info
/// transfer and a file transfer as the timeline does.
extension L10n {
    // MARK: - Messages

    /// A message sent that expects a reply.
    public static func nodeMessageSent(_ id: String, timeoutMs: Int64) -> LocalizedText {
        let t = duration(timeoutMs)
        return LocalizedText(ja: "メッセージ \(id) を送信しました。返信を最大\(t.ja)待ちます",
                             en: "Sent message \(id); waiting up to \(t.en) for the reply")
    }
    /// A message sent without expecting a reply.
    public static func nodeMessageSentNoReply(_ id: String) -> LocalizedText {
        LocalizedText(ja: "メッセージ \(id) を送信しました（返信なし）", en: "Sent message \(id) (no reply expected)")
    }
    /// The reply to a message sent by hand.
    public static func nodeMessageReply(_ id: String, _ reply: String) -> LocalizedText {
        LocalizedText(ja: "メッセージ \(id) の返信: \(reply)", en: "Reply to message \(id): \(reply)")
    }
    /// A reply that is raw data.
    public static func nodeDataReply(bytes: Int) -> LocalizedText {
        let b = nodeBytes(Int64(bytes))
        return LocalizedText(ja: "データ \(b.ja)", en: "\(b.en) of data")
    }
    /// A message sent by hand failed (at once, or later).
    public static func nodeMessageFailed(_ id: String, _ code: WCErrorCode) -> LocalizedText {
        let e = nodeWCError(code)
        return LocalizedText(ja: "メッセージ \(id) は失敗しました: \(e.ja)", en: "Message \(id) failed: \(e.en)")
    }

    // MARK: - Application context

    /// `context set` succeeded.
    public static let nodeContextSet = LocalizedText(ja: "アプリケーションコンテキストを設定しました", en: "Application context set")
    /// `context set` failed.
    public static func nodeContextNotSet(_ code: WCErrorCode) -> LocalizedText {
        let e = nodeWCError(code)
        return LocalizedText(ja: "アプリケーションコンテキストを設定できません: \(e.ja)", en: "Application context not set: \(e.en)")
    }
    /// `context`: the context sent and the one received.
    public static func nodeContextShown(sent: String, received: String) -> LocalizedText {
        LocalizedText(ja: "送信したコンテキスト: \(sent)\n受信したコンテキスト: \(received)",
                      en: "Context sent: \(sent)\nContext received: \(received)")
    }

    // MARK: - User info

    /// `userinfo send` queued a transfer.
    public static func nodeUserInfoQueued(_ id: String, bytes: Int) -> LocalizedText {
        let b = nodeBytes(Int64(bytes))
        return LocalizedText(ja: "ユーザー情報 \(id)（\(b.ja)）をキューに入れました。届いたらお知らせします",
                             en: "Queued user info \(id) (\(b.en)); you will be told when it is delivered")
    }
    /// A transfer call failed at once.
    public static func nodeNotSent(_ what: LocalizedText, _ code: WCErrorCode) -> LocalizedText {
        let e = nodeWCError(code)
        return LocalizedText(ja: "\(what.ja)を送れません: \(e.ja)", en: "\(what.en) not sent: \(e.en)")
    }
    /// "ユーザー情報" / "User info".
    public static let nodeUserInfo = LocalizedText(ja: "ユーザー情報", en: "User info")
    /// "ファイル" / "File".
    public static let nodeFile = LocalizedText(ja: "ファイル", en: "File")
    /// "コンプリケーション情報" / "Complication info".
    public static let nodeComplicationInfo = LocalizedText(ja: "コンプリケーション情報", en: "Complication info")
    /// A transfer sent by hand was delivered.
    public static func nodeDelivered(_ what: LocalizedText, _ id: String) -> LocalizedText {
        LocalizedText(ja: "\(what.ja) \(id) は相手に届きました", en: "\(what.en) \(id) was delivered")
    }
    /// A transfer sent by hand failed.
    public static func nodeTransferFailed(_ what: LocalizedText, _ id: String, _ code: WCErrorCode) -> LocalizedText {
        let e = nodeWCError(code)
        return LocalizedText(ja: "\(what.ja) \(id) は届きませんでした: \(e.ja)", en: "\(what.en) \(id) failed: \(e.en)")
    }
    /// A transfer was cancelled (unless it was already delivered).
    public static func nodeCancelled(_ what: LocalizedText, _ id: String) -> LocalizedText {
        LocalizedText(ja: "\(what.ja) \(id) を取り消しました（すでに届いていた場合は取り消せません）",
                      en: "Cancelled \(what.en.lowercased()) \(id) (unless it was already delivered)")
    }
    /// No outstanding transfer has that id.
    public static func nodeNoSuchTransfer(_ what: LocalizedText, _ id: String) -> LocalizedText {
        LocalizedText(ja: "未送信の\(what.ja) \(id) はありません", en: "No outstanding \(what.en.lowercased()) \(id)")
    }
    /// The replica's own deltas cannot be cancelled.
    public static func nodeSyncTransfer(_ id: String) -> LocalizedText {
        LocalizedText(ja: "\(id) はノードの同期データ（peerlink.sync）なので取り消せません",
                      en: "\(id) is the node's own sync data (peerlink.sync) and cannot be cancelled")
    }

    // MARK: - Outbox and files

    /// `outbox` heading.
    public static func nodeOutboxHeading(_ n: Int) -> LocalizedText {
        LocalizedText(ja: "未送信のユーザー情報: \(n)件", en: "Outstanding user info: \(n)")
    }
    /// One outbox line.
    public static func nodeOutboxLine(id: String, seq: UInt64, bytes: Int, ageMs: Int64, complication: Bool,
                                      kind: LocalizedText, onTheWire: Bool) -> LocalizedText {
        let b = nodeBytes(Int64(bytes)), age = duration(ageMs)
        return LocalizedText(
            ja: "\(id) · seq \(seq) · \(b.ja) · \(age.ja)前 · \(complication ? "コンプリケーション" : "通常") · \(kind.ja)\(onTheWire ? " · 送信中" : "")",
            en: "\(id) · seq \(seq) · \(b.en) · \(age.en) ago · \(complication ? "complication" : "ordinary") · \(kind.en)\(onTheWire ? " · on the wire" : "")")
    }
    /// Who queued a transfer: the node's sync, the person, the app.
    public static let nodeKindSync = LocalizedText(ja: "同期データ", en: "sync data")
    public static let nodeKindHand = LocalizedText(ja: "手動", en: "by hand")
    public static let nodeKindApp = LocalizedText(ja: "アプリ", en: "app")

    /// `files` heading.
    public static func nodeFilesHeading(_ n: Int) -> LocalizedText {
        LocalizedText(ja: "送信待ちのファイル: \(n)件", en: "Outstanding files: \(n)")
    }
    /// One `files` line.
    public static func nodeFileLine(id: String, path: String, bytes: Int64, percent: Int, ageMs: Int64,
                                    kind: LocalizedText, onTheWire: Bool) -> LocalizedText {
        let b = nodeBytes(bytes), age = duration(ageMs)
        return LocalizedText(
            ja: "\(id) · \(path) · \(b.ja) · \(percent)% · \(age.ja)前 · \(kind.ja)\(onTheWire ? " · 送信中" : " · 待機中")",
            en: "\(id) · \(path) · \(b.en) · \(percent)% · \(age.en) ago · \(kind.en)\(onTheWire ? " · sending" : " · waiting")")
    }
    /// `file send` queued a file.
    public static func nodeFileQueued(_ id: String, path: String) -> LocalizedText {
        LocalizedText(ja: "ファイル \(id)（\(path)）を送信キューに入れました。届いたらお知らせします",
                      en: "Queued file \(id) (\(path)); you will be told when it is delivered")
    }
    /// `file send` of a path that is not there.
    public static func nodeNoFile(_ path: String) -> LocalizedText {
        LocalizedText(ja: "ファイルがありません: \(path)（ノードのファイルフォルダ <state>/files からの相対パスで指定します）",
                      en: "no file \(path) (give a path inside the node's files folder, <state>/files)")
    }

    // MARK: - Complication

    /// `complication push JSON` sent as complication user info.
    public static func nodeComplicationSent(_ id: String, remaining: Int) -> LocalizedText {
        LocalizedText(ja: "コンプリケーション情報 \(id) を送信しました（今日の残り\(remaining)回）",
                      en: "Sent complication info \(id) (\(remaining) left today)")
    }
    /// The budget was spent: it goes as ordinary user info.
    public static func nodeComplicationFallback(_ id: String) -> LocalizedText {
        LocalizedText(ja: "今日のコンプリケーション送信回数を使い切ったため、\(id) は通常のユーザー情報として送ります",
                      en: "Today's complication budget is spent: \(id) goes as ordinary user info")
    }
    /// The watch does not push complication info.
    public static let nodeComplicationPhoneOnly = LocalizedText(
        ja: "コンプリケーション情報はiPhoneからのみ送れます", en: "complication info is sent from the iPhone only")

    // MARK: - What the peer sent

    /// A message from the peer that the app does not take as its own.
    public static func nodeReceivedMessage(_ id: String, from peer: DeviceRole, _ payload: String) -> LocalizedText {
        let p = nodePeerName(peer)
        return LocalizedText(ja: "← \(p.ja)からのメッセージ \(id): \(payload)", en: "← Message \(id) from \(p.en): \(payload)")
    }
    /// User info from the peer that the app does not take as its own.
    public static func nodeReceivedUserInfo(from peer: DeviceRole, _ payload: String) -> LocalizedText {
        let p = nodePeerName(peer)
        return LocalizedText(ja: "← \(p.ja)からのユーザー情報: \(payload)", en: "← User info from \(p.en): \(payload)")
    }
    /// An application context from the peer that the app does not take as its own.
    public static func nodeReceivedContext(from peer: DeviceRole, _ payload: String) -> LocalizedText {
        let p = nodePeerName(peer)
        return LocalizedText(ja: "← \(p.ja)からのアプリケーションコンテキスト: \(payload)",
                             en: "← Application context from \(p.en): \(payload)")
    }
    /// A file from the peer that the app does not take as its own (it is deleted after the callback).
    public static func nodeReceivedFile(from peer: DeviceRole, name: String, bytes: Int64) -> LocalizedText {
        let p = nodePeerName(peer), b = nodeBytes(bytes)
        return LocalizedText(ja: "← \(p.ja)からのファイル \(name)（\(b.ja)）", en: "← File \(name) from \(p.en) (\(b.en))")
    }

    // MARK: - Link

    /// `link`: the session's state.
    public static func nodeLinkState(connected: Bool, reachable: Bool, paired: Bool) -> LocalizedText {
        LocalizedText(
            ja: "リンク: \(connected ? "接続中" : "未接続")・\(reachable ? "到達可能" : "到達不可")（\(paired ? "ペアリング済み" : "ペアリングなし")）",
            en: "Link: \(connected ? "connected" : "not connected"), \(reachable ? "reachable" : "not reachable") (\(paired ? "paired" : "not paired"))")
    }
    /// `link`: what waits to be sent.
    public static func nodeLinkOutstanding(userInfo: Int, files: Int) -> LocalizedText {
        LocalizedText(ja: "未送信: ユーザー情報 \(userInfo)件、ファイル \(files)件", en: "Outstanding: \(userInfo) user info, \(files) files")
    }
    /// `link`: frame counters.
    public static func nodeLinkFrames(sent: Int, received: Int, retransmits: Int, rejected: Int) -> LocalizedText {
        LocalizedText(ja: "フレーム: 送信 \(sent)、受信 \(received)、再送 \(retransmits)、拒否した接続 \(rejected)",
                      en: "Frames: \(sent) sent, \(received) received, \(retransmits) resent; \(rejected) connections refused")
    }
    /// `link`: heading of the recent errors.
    public static let nodeLinkRecentErrors = LocalizedText(ja: "最近のエラー", en: "Recent errors")
}
