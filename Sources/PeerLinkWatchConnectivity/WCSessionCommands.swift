import Foundation
import PeerLinkCore

/// The `session …` verbs every WatchConnectivity side answers: what the person or the system
/// does to the session, beyond the app's own verbs.
enum WCSessionCommands {
    static func rows<Side>() -> [Command<WCNodeApp<Side>>] {
        [
            Command("session state", ja: "WCSession の状態を表示", en: "shows the WCSession's state") { node, _, ctx in
                guard let s = node.session else { return .error("no session") }
                return node.inEvent(&ctx) { _ in
                    let v = WCSessionQuery.value(s, [])!
                    return .ok(v, text: v.logText(limit: 400))
                }
            },
            Command("session switch-watch", ja: "ペアリングされた Watch を切り替える（iPhone）",
                    en: "the user switches to another paired watch (phone): inactive, then deactivated") { node, _, ctx in
                node.inEvent(&ctx) { ctx in
                    ctx.switchPairedWatch() ? .ok(text: "the session was deactivated") : .error("session switch-watch: only on the phone, with an activated session")
                }
            },
            Command("session foreground", ja: "アプリが前面に出る", en: "the app comes to the foreground") { node, _, ctx in
                setAppState(node, &ctx) { $0.isForeground = true }
            },
            Command("session background", ja: "アプリが背面に回る", en: "the app goes to the background") { node, _, ctx in
                setAppState(node, &ctx) { $0.isForeground = false }
            },
            Command("session complication", "on|off", ja: "文字盤のコンプリケーション（Watch）",
                    en: "the complication is put on or taken off the active watch face (watch)") { node, c, ctx in
                guard c.words.count == 3, ["on", "off"].contains(c.words[2]) else { return .error("usage: session complication on|off") }
                return setAppState(node, &ctx) { $0.complicationEnabled = c.words[2] == "on" }
            },
        ]
    }

    private static func setAppState<Side>(_ node: WCNodeApp<Side>, _ ctx: inout NodeContext, _ change: (inout AppState) -> Void) -> CommandReply {
        guard let host = node.session?.host else { return .error("no session") }
        change(&host.appState)
        let state = host.appState
        return node.inEvent(&ctx) { ctx in
            ctx.setAppState(state)
            return .ok(text: "foreground \(state.isForeground), complication \(state.complicationEnabled)")
        }
    }
}

/// `query session …`: the session's state as values for expectations.
enum WCSessionQuery {
    static func value(_ s: WCSession, _ path: [String]) -> PlistValue? {
        let all: [String: PlistValue] = [
            "activationState": .string("\(s.activationState)"),
            "isReachable": .bool(s.isReachable),
            "isPaired": .bool(s.isPaired),
            "isWatchAppInstalled": .bool(s.isWatchAppInstalled),
            "isComplicationEnabled": .bool(s.isComplicationEnabled),
            "hasContentPending": .bool(s.hasContentPending),
            "outstandingUserInfoTransfers": .int(Int64(s.host.state.outstandingUserInfo.count)),
            "outstandingFileTransfers": .int(Int64(s.host.state.outstandingFiles.count)),
            "remainingComplicationUserInfoTransfers": .int(Int64(s.remainingComplicationUserInfoTransfers)),
        ]
        switch path.count {
        case 0: return .dictionary(all)
        case 1: return all[path[0]]
        default: return nil
        }
    }
}
