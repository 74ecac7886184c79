import Foundation
import PeerLinkCore
import PeerLinkWatchConnectivity
import PeerLinkWatchConnectivityHarness

/// Which `ProbeBehaviour` a side's app gets (a type, so that a pair is a type).
protocol ProbeConfig: SendableMetatype {
    static var behaviour: ProbeBehaviour { get }
}

enum Plain: ProbeConfig { static var behaviour: ProbeBehaviour { ProbeBehaviour() } }
enum Dormant: ProbeConfig { static var behaviour: ProbeBehaviour { ProbeBehaviour(activatesAtLaunch: false) } }
enum RepliesLater: ProbeConfig { static var behaviour: ProbeBehaviour { ProbeBehaviour(repliesLater: true) } }
enum StaysDeactivated: ProbeConfig { static var behaviour: ProbeBehaviour { ProbeBehaviour(reactivatesAfterDeactivate: false) } }

/// A side running `ProbeApp`: the verbs a scenario types at it and what `query` reads of it.
/// Harness code (PeerLink's types); the app itself only knows `WCSession`.
enum ProbeSide<Config: ProbeConfig>: WCAppSide {
    static var title: String { "probe" }

    static func makeApp(_ role: DeviceRole, restoring saved: PlistValue?) -> ProbeApp {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wc-probe-\(role.rawValue)-\(UUID().uuidString)", isDirectory: true)
        func numbers(_ key: String) -> [Int] { saved?[key]?.arrayValue?.compactMap { $0.intValue.map(Int.init) } ?? [] }
        return ProbeApp(behaviour: Config.behaviour, isPhone: role == .phone, keptDirectory: dir, sentNumbers: numbers("sent"), receivedNumbers: numbers("received"))
    }

    static func list(_ numbers: [Int]) -> PlistValue { .array(numbers.map { .int(Int64($0)) }) }

    /// The user info sent and received (their `n`s in order): the app's own storage, across restarts.
    static func save(_ app: ProbeApp) -> PlistValue? { ["sent": list(app.sentNumbers), "received": list(app.receivedNumbers)] }

    /// Each direction as both sides see it: equal on both sides when each received exactly what
    /// the other sent, in order.
    static func convergenceState(_ app: ProbeApp) -> PlistValue? {
        let mine = ["sent": list(app.sentNumbers), "received": list(app.receivedNumbers)]
        return app.isPhone ? ["p2w": mine["sent"]!, "w2p": mine["received"]!] : ["p2w": mine["received"]!, "w2p": mine["sent"]!]
    }

    static func int(_ c: NodeCommand, _ i: Int) -> Int? { c.words.count > i ? Int(c.words[i]) : nil }

    static var commands: [WCTestCommand<ProbeApp>] {
        [
            WCTestCommand("activate", en: "calls activate()") { app, _ in app.activate(); return .ok() },
            WCTestCommand("send-ui", "A B", en: "transferUserInfo n=A…B") { app, c in
                guard let a = int(c, 1), let b = int(c, 2), a <= b else { return .error("usage: send-ui A B") }
                app.sendUserInfo(a...b)
                return .ok()
            },
            WCTestCommand("cancel-ui", "N", en: "cancels the user-info transfer of n=N") { app, c in
                guard let n = int(c, 1) else { return .error("usage: cancel-ui N") }
                app.cancelUserInfo(n)
                return .ok()
            },
            WCTestCommand("reply-now", en: "answers the messages whose reply the app kept") { app, _ in app.replyLater(); return .ok() },
            WCTestCommand("send-msg", "A B", en: "sendMessage n=A…B without reply handler") { app, c in
                guard let a = int(c, 1), let b = int(c, 2), a <= b else { return .error("usage: send-msg A B") }
                app.sendMessages(a...b)
                return .ok()
            },
            WCTestCommand("ask", "N", en: "sendMessage n=N with a reply handler") { app, c in
                guard let n = int(c, 1) else { return .error("usage: ask N") }
                app.ask(n)
                return .ok()
            },
            WCTestCommand("set-ctx", "KEY N", en: "updateApplicationContext [KEY: N]") { app, c in
                guard c.words.count == 3, let n = int(c, 2) else { return .error("usage: set-ctx KEY N") }
                app.setContext([c.words[1]: n])
                return .ok()
            },
            WCTestCommand("send-file", "NAME BYTES", en: "transferFile of a new file") { app, c in
                guard c.words.count == 3, let n = int(c, 2) else { return .error("usage: send-file NAME BYTES") }
                app.sendFile(c.words[1], bytes: n)
                return .ok()
            },
            WCTestCommand("push-comp", "N", en: "transferCurrentComplicationUserInfo N times") { app, c in
                guard let n = int(c, 1), n > 0 else { return .error("usage: push-comp N") }
                app.pushComplication(n)
                return .ok()
            },
            WCTestCommand("big", "msg|data|ctx|ui BYTES", en: "a payload whose canonical encoding is exactly BYTES bytes") { app, c in
                guard c.words.count == 3, let n = int(c, 2) else { return .error("usage: big msg|data|ctx|ui BYTES") }
                let label = "big \(c.words[1]) \(n)"
                switch c.words[1] {
                case "msg": app.send(["b": blob(n) { .dictionary(["b": .data($0)]) }], label: label)
                case "data": app.askData(blob(n) { .data($0) })
                case "ctx": app.setContext(["b": blob(n) { .dictionary(["b": .data($0)]) }], label: label)
                case "ui": app.transfer(["b": blob(n) { .dictionary(["b": .data($0)]) }])
                default: return .error("usage: big msg|data|ctx|ui BYTES")
                }
                return .ok()
            },
            WCTestCommand("try-all", en: "every sending call of WCSession once") { app, _ in
                app.send(["n": 1], label: "sendMessage")
                app.askData(Data([1, 2, 3]))
                app.setContext(["n": 1], label: "updateApplicationContext")
                app.transfer(["n": 1])
                app.sendFile("f", bytes: 10)
                app.session.transferCurrentComplicationUserInfo(["c": 99])
                return .ok()
            },
        ]
    }

    /// Data whose payload, as `wrap` makes it, encodes to exactly `size` bytes canonically.
    static func blob(_ size: Int, _ wrap: ([UInt8]) -> PlistValue) -> Data {
        var k = size
        while k > 0, CanonicalEncoding.encodedSize(wrap([UInt8](repeating: 1, count: k))) > size {
            k -= max(1, CanonicalEncoding.encodedSize(wrap([UInt8](repeating: 1, count: k))) - size)
        }
        precondition(CanonicalEncoding.encodedSize(wrap([UInt8](repeating: 1, count: k))) == size, "no blob encodes to \(size) bytes")
        return Data(repeating: 1, count: k)
    }

    /// A context as `a=1,b=2`.
    static func describe(_ d: [String: Any]) -> String { d.keys.sorted().map { "\($0)=\(ProbeApp.describe(d[$0]!))" }.joined(separator: ",") }

    /// `log`, `results` (each a list of strings), `overlaps`, `received-exist` and
    /// `kept-exist` (whether each file is there now), `remaining`, `state`, `directory`, and
    /// the session's own state: `reachability`, `reachable`, `file-progress`, `outstanding`,
    /// `transferring`, `pending`, `watch-directory`, `contexts`, `finished-complications`, `watch-states`.
    static func query(_ app: ProbeApp, _ path: [String]) -> PlistValue? {
        switch path.first {
        case "log": .array(app.log.map { .string($0) })
        case "results": .array(app.results.map { .string($0) })
        case "overlaps": .int(Int64(app.overlaps))
        case "received-exist": .array(app.receivedURLs.map { .bool(FileManager.default.fileExists(atPath: $0.path)) })
        case "kept-exist": .array(app.keptURLs.map { .bool(FileManager.default.fileExists(atPath: $0.path)) })
        case "remaining": .int(Int64(app.session.remainingComplicationUserInfoTransfers))
        case "state": .int(Int64(app.session.activationState.rawValue))
        case "directory": .string(app.keptDirectory.path)
        case "reachability": .array(app.reachability.map { .bool($0) })
        case "finished-complications": .array(app.finishedComplications.map { .string($0) })
        case "watch-states": .array(app.watchStates.map { .string($0) })
        case "reachable": .bool(app.session.isReachable)
        case "file-progress": .array(app.fileProgress.map { .string($0) })
        case "outstanding": .array(app.session.outstandingUserInfoTransfers.map { .string("\($0.userInfo["n"] ?? "?")") })
        case "transferring": .array(app.userInfoTransfers.keys.sorted().map { .string("\($0) \(app.userInfoTransfers[$0]!.isTransferring)") })
        case "pending": .bool(app.session.hasContentPending)
        case "watch-directory": .bool(app.session.watchDirectoryURL != nil)
        case "contexts": .string("sent \(describe(app.session.applicationContext)) received \(describe(app.session.receivedApplicationContext))")
        default: nil
        }
    }
}
