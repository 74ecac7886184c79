import Foundation
import PeerLinkWatchConnectivity

/// How a `ProbeApp` behaves, chosen by the side that makes it (harness code).
struct ProbeBehaviour: Sendable {
    /// Calls `activate()` in its initializer (as apps do); else only on the `activate` verb.
    var activatesAtLaunch = true
    /// Calls `activate()` again from `sessionDidDeactivate` (Apple's advice for watch switches).
    var reactivatesAfterDeactivate = true
    /// Answers messages that expect a reply (with the message's `n` times ten, else `[:]`).
    var replies = true
    /// Keeps the reply handler and answers only on `replyLater()` (a later event), not in the callback.
    var repliesLater = false
}

/// A test app written against `WCSession` only, as an app's sync layer is: it records every
/// delegate call in order (`log`), the outcome of each of its own calls (`results`), and
/// whether a delegate call ever began while another was still running (`overlaps`).
final class ProbeApp: NSObject, WCSessionDelegate {
    let session: WCSession
    let behaviour: ProbeBehaviour
    /// Which side it runs on (the harness says; a real app knows its own platform).
    let isPhone: Bool
    /// Where files the app keeps go (its own storage).
    let keptDirectory: URL
    private(set) var log: [String] = []
    private(set) var results: [String] = []
    private(set) var overlaps = 0
    /// Every received file's URL as the session handed it, and where kept ones went.
    private(set) var receivedURLs: [URL] = []
    private(set) var keptURLs: [URL] = []
    /// `isReachable` as each `sessionReachabilityDidChange` saw it.
    private(set) var reachability: [Bool] = []
    /// Each finished outgoing file's progress and `isTransferring` in `didFinish`.
    private(set) var fileProgress: [String] = []
    /// The user-info transfers the app started, by `n`.
    private(set) var userInfoTransfers: [Int: WCSessionUserInfoTransfer] = [:]
    /// Every `n` of a received user info, in arrival order, and of those it sent, in order;
    /// the app keeps both across restarts.
    private(set) var receivedNumbers: [Int]
    private(set) var sentNumbers: [Int]
    /// The watch's state as each `sessionWatchStateDidChange` saw it (iOS).
    private(set) var watchStates: [String] = []
    /// `isCurrentComplicationInfo` of each finished complication transfer, in its `didFinish`.
    private(set) var finishedComplications: [String] = []
    private var heldReplies: [() -> Void] = []
    private var running = false

    init(behaviour: ProbeBehaviour, isPhone: Bool, keptDirectory: URL, sentNumbers: [Int] = [], receivedNumbers: [Int] = []) {
        self.behaviour = behaviour
        self.isPhone = isPhone
        self.sentNumbers = sentNumbers
        self.receivedNumbers = receivedNumbers
        self.keptDirectory = keptDirectory
        session = WCSession.default
        super.init()
        session.delegate = self
        if behaviour.activatesAtLaunch { session.activate() }
    }

    /// A value as the log shows it (data by its size).
    static func describe(_ v: Any) -> String { (v as? Data).map { "data\($0.count)" } ?? "\(v)" }

    static func code(_ error: (any Error)?) -> String {
        guard let error else { return "ok" }
        if let e = error as? WCError { return "\(e.code)" }
        return "\(error)"
    }

    // MARK: - What the app does

    func activate() { session.activate() }

    /// `transferUserInfo(["n": n])` for each of `numbers`.
    func sendUserInfo(_ numbers: ClosedRange<Int>) {
        for n in numbers { userInfoTransfers[n] = transfer(["n": n]) }
    }

    /// Cancels the transfer of `n`.
    func cancelUserInfo(_ n: Int) {
        userInfoTransfers[n]?.cancel()
        sentNumbers.removeAll { $0 == n }
    }

    /// Answers the messages whose reply was kept (`repliesLater`).
    func replyLater() {
        let replies = heldReplies
        heldReplies = []
        for r in replies { r() }
    }

    /// `sendMessage(["n": n])` without a reply handler, for each of `numbers`.
    func sendMessages(_ numbers: ClosedRange<Int>) {
        for n in numbers {
            session.sendMessage(["n": n], replyHandler: nil) { [self] e in results.append("msg \(n) \(Self.code(e))") }
        }
    }

    /// `sendMessage(["n": n])` with a reply handler.
    func ask(_ n: Int) {
        session.sendMessage(["n": n], replyHandler: { [self] reply in results.append("ask \(n) reply \(reply["n"] ?? "none")") },
                            errorHandler: { [self] e in results.append("ask \(n) \(Self.code(e))") })
    }

    /// `sendMessageData` with a reply handler.
    func askData(_ bytes: Data) {
        session.sendMessageData(bytes, replyHandler: { [self] reply in results.append("askData reply \(reply.count)") },
                                errorHandler: { [self] e in results.append("askData \(Self.code(e))") })
    }

    /// `updateApplicationContext`, recording what it threw.
    func setContext(_ context: [String: Any], label: String = "ctx") {
        do {
            try session.updateApplicationContext(context)
            results.append("\(label) ok")
        } catch {
            results.append("\(label) \(Self.code(error))")
        }
    }

    /// `sendMessage` of `message` with a reply handler, the outcome under `label`.
    func send(_ message: [String: Any], label: String) {
        session.sendMessage(message, replyHandler: { [self] _ in results.append("\(label) reply") },
                            errorHandler: { [self] e in results.append("\(label) \(Self.code(e))") })
    }

    /// `transferUserInfo(info)`, noted in `sentNumbers` until `didFinish` reports it failed.
    @discardableResult
    func transfer(_ info: [String: Any]) -> WCSessionUserInfoTransfer {
        if let n = info["n"] as? Int { sentNumbers.append(n) }
        return session.transferUserInfo(info)
    }

    /// Writes `bytes` bytes to `name` in the app's own directory and sends it with `transferFile`.
    func sendFile(_ name: String, bytes: Int) {
        try? FileManager.default.createDirectory(at: keptDirectory, withIntermediateDirectories: true)
        let url = keptDirectory.appendingPathComponent("out-\(name)")
        try? Data(repeating: 7, count: bytes).write(to: url)
        session.transferFile(url, metadata: ["name": name])
    }

    /// `transferCurrentComplicationUserInfo` `count` times, recording the budget left before
    /// each and whether the transfer is the current complication info.
    func pushComplication(_ count: Int) {
        for i in 1...count {
            let before = session.remainingComplicationUserInfoTransfers
            let t = session.transferCurrentComplicationUserInfo(["c": i])
            results.append("comp \(i) before \(before) current \(t.isCurrentComplicationInfo)")
        }
    }

    // MARK: - WCSessionDelegate

    /// Records `entry` (nil: nothing in `log`), noting a call that starts while another runs.
    private func record(_ entry: String?, _ body: () -> Void = {}) {
        if running { overlaps += 1 }
        running = true
        if let entry { log.append(entry) }
        body()
        running = false
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        record("activated \(activationState.rawValue) \(Self.code(error))")
    }

    func sessionDidBecomeInactive(_ session: WCSession) {
        // Apple: sending while inactive is an error; the delegate may still receive.
        record("inactive \(session.activationState.rawValue)") { setContext(["inactive": 1], label: "ctx while inactive") }
    }

    func sessionDidDeactivate(_ session: WCSession) {
        record("deactivated \(session.activationState.rawValue)") {
            if behaviour.reactivatesAfterDeactivate { session.activate() }
        }
    }

    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any] = [:]) {
        // Calls that fail at once must still report later, never inside this callback.
        if let n = userInfo["n"] as? Int { receivedNumbers.append(n) }
        record("ui \(userInfo["n"] ?? userInfo["c"] ?? "?")") {
            if userInfo["n"] as? Int == 2 { session.sendMessage(["bad": NSObject()], replyHandler: nil) { [self] e in results.append("nested \(Self.code(e)) during-callback \(running)") } }
        }
    }

    func sessionReachabilityDidChange(_ session: WCSession) {
        // Kept apart from `log`, in `reachability`: the link's timing decides when it changes.
        record(nil) { reachability.append(session.isReachable) }
    }

    func sessionWatchStateDidChange(_ session: WCSession) {
        record(nil) { watchStates.append("paired \(session.isPaired) installed \(session.isWatchAppInstalled) complication \(session.isComplicationEnabled)") }
    }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {
        record("msg \(message["n"] ?? "?")")
    }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        record("ask \(message["n"] ?? "?")") {
            guard behaviour.replies else { return }
            let reply = (message["n"] as? Int).map { ["n": $0 * 10] } ?? [:]
            if behaviour.repliesLater { heldReplies.append { replyHandler(reply) } } else { replyHandler(reply) }
        }
    }

    func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void) {
        record("askData \(messageData.count)") { replyHandler(Data(messageData.prefix(3))) }
    }

    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        record("ctx \(applicationContext.keys.sorted().map { "\($0)=\(Self.describe(applicationContext[$0]!))" }.joined(separator: ","))")
    }

    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {
        record("finished-ui \(userInfoTransfer.userInfo["n"] ?? userInfoTransfer.userInfo["c"] ?? "-") \(Self.code(error))") {
            if let c = userInfoTransfer.userInfo["c"] { finishedComplications.append("\(c) current \(userInfoTransfer.isCurrentComplicationInfo)") }
            if error != nil, let n = userInfoTransfer.userInfo["n"] as? Int, let i = sentNumbers.lastIndex(of: n) { sentNumbers.remove(at: i) }
        }
    }

    func session(_ session: WCSession, didReceive file: WCSessionFile) {
        let exists = FileManager.default.fileExists(atPath: file.fileURL.path)
        record("file \(file.metadata?["name"] ?? "?") exists \(exists)") {
            receivedURLs.append(file.fileURL)
            // The app keeps the files whose name starts with "keep" (its own decision).
            guard (file.metadata?["name"] as? String)?.hasPrefix("keep") == true else { return }
            try? FileManager.default.createDirectory(at: keptDirectory, withIntermediateDirectories: true)
            let kept = keptDirectory.appendingPathComponent("kept-\(receivedURLs.count)-\(file.fileURL.lastPathComponent)")
            if (try? FileManager.default.moveItem(at: file.fileURL, to: kept)) != nil { keptURLs.append(kept) }
        }
    }

    func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {
        let name = fileTransfer.file.metadata?["name"] ?? "?"
        record("finished-file \(name) \(Self.code(error))") {
            let p = fileTransfer.progress
            fileProgress.append("\(name) \(p.completedUnitCount)/\(p.totalUnitCount) transferring \(fileTransfer.isTransferring)")
        }
    }
}
