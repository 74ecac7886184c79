import PeerLinkCore
import PhoneNode
import PeerLinkScenarios
import PhoneWatch
import Testing
import WatchNode

/// Every WatchConnectivity feature typed at a node's prompt (`message send`, `userinfo send`,
/// `file send`, `context set`, `complication push JSON`, `outbox`, `files`, `link`), through
/// the real phone and watch apps on the simulated network: what the person is told at once,
/// what they are told later, and that neither app takes the hand-sent payloads for its own.
@Suite("Connectivity commands at the prompt")
struct HandConnectivityTests {
    static let start: EpochMs = 1_780_264_800_000  // 2026-06-01T07:00:00+09:00

    /// Both apps, paired and quiet, in `language`.
    static func makeNetwork(language: AppLanguage = .en) throws -> PhoneWatchNetwork {
        let secret = [UInt8](repeating: 5, count: LinkConfig.pairingSecretBytes)
        let tokyo = try #require(LocalCalendar(identifier: "Asia/Tokyo"))
        let net = try PhoneWatchNetwork(
            seed: 3, startMs: start,
            phone: .init(makeApp: { PhoneApp() }, config: LinkConfig(role: .phone, pairingSecret: secret),
                         calendar: tokyo, language: language),
            watch: .init(makeApp: { WatchApp() }, config: LinkConfig(role: .watch, pairingSecret: secret),
                         calendar: tokyo, language: language))
        #expect(net.runUntilQuiet())
        _ = net.phone.drainNotices()
        _ = net.watch.drainNotices()
        return net
    }

    static func value(_ net: PhoneWatchNetwork, _ role: DeviceRole, _ path: String) -> PlistValue? {
        let r = net.command(role, "query " + path)
        return r.isOK ? r.value : nil
    }

    // MARK: - Typing JSON

    @Test func jsonWithEscapedQuotesPassesWholeAndAnUnclosedQuoteIsSaidInTheNodesLanguage() throws {
        let net = try Self.makeNetwork()
        let set = net.command(.phone, #"context set {"note": "say \"hi\" \\ ok"}"#)
        #expect(set.isOK, "\(set.text)")
        #expect(net.runUntilQuiet())
        #expect(net.watch.ctx.receivedApplicationContext["note"]?.stringValue == #"say "hi" \ ok"#)
        let en = net.command(.phone, #"context set {"note": "open}"#)
        #expect(!en.isOK && en.text == #"unclosed quote in: context set {"note": "open}"#, "\(en.text)")
        let ja = try Self.makeNetwork(language: .ja)
        #expect(ja.command(.watch, #"userinfo send {"a": "b}"#).text == #"引用符が閉じていません: userinfo send {"a": "b}"#)
    }

    // MARK: - Messages

    @Test func aMessageSentByHandShowsTheWatchAppsReplyWhenItComes() throws {
        let net = try Self.makeNetwork()
        let sent = net.command(.phone, #"message send {"hello": "watch"}"#)
        #expect(sent.isOK, "\(sent.text)")
        #expect(sent.text.hasPrefix("Sent message m") && sent.text.contains("waiting up to 5 s"))
        #expect(net.phone.drainNotices().isEmpty, "nothing has come back yet")
        #expect(net.runUntilQuiet())
        let id = try #require(sent.value["id"]?.stringValue)
        #expect(net.phone.drainNotices() == [#"Reply to message \#(id): {"error":"unknown message"}"#])
        #expect(net.watch.drainNotices().contains { $0.hasPrefix("← Message m") && $0.hasSuffix(#"from the iPhone: {"hello":"watch"}"#) })
        // Neither app counts it as one of its own messages.
        #expect(Self.value(net, .phone, "messages sent") == 0)
        #expect(Self.value(net, .phone, "link-errors count") == 0)
    }

    @Test func aMessageToAnUnreachableWatchFailsAtOnceWithItsWCErrorAndLinkListsIt() throws {
        let net = try Self.makeNetwork()
        #expect(net.command(.watch, "app background").isOK)
        #expect(net.runUntilQuiet())
        let r = net.command(.phone, #"message send {"a": 1}"#)
        #expect(!r.isOK)
        #expect(r.text.contains("failed: 7007 notReachable (the other app is not reachable)"), "\(r.text)")
        #expect(net.phone.drainNotices().isEmpty, "the failure is the command's answer, not told twice")
        let link = net.command(.phone, "link")
        #expect(link.text.contains("Recent errors:") && link.text.contains("2026-06-01 07:00:") && link.text.contains("7007 notReachable"), "\(link.text)")
        #expect(link.value["recentErrors"]?.arrayValue?.last?["name"] == "notReachable")
    }

    @Test func aMessageWhoseReplyIsLateFailsWithMessageReplyTimedOutAndTheLateReplyIsIgnored() throws {
        let net = try Self.makeNetwork()
        net.faults.latencyMs = 300
        let r = net.command(.phone, #"message send {"a": 1} --timeout 250ms"#)
        #expect(r.isOK && r.value["timeoutMs"] == 250, "\(r.text)")
        #expect(net.runUntilQuiet())
        let notices = net.phone.drainNotices()
        #expect(notices.count == 1 && notices[0].contains("failed: 7012 messageReplyTimedOut"), "\(notices)")
    }

    @Test func aMessageWithoutReplyIsToldSentAndTheBadOnesAreRefusedInTheDevicesLanguage() throws {
        let net = try Self.makeNetwork(language: .ja)
        let r = net.command(.phone, #"message send {"a": 1} --no-reply"#)
        #expect(r.isOK && r.text.hasSuffix("を送信しました（返信なし）") && r.value["replyExpected"] == false, "\(r.text)")
        #expect(net.command(.phone, "message send [1, 2]").text == "辞書（{\"key\": 値}）を指定してください")
        #expect(net.command(.phone, "message send {oops").text.hasPrefix("JSONとして読めません: "))
        #expect(net.command(.phone, #"message send {"a": 1} --timeout 5x"#).text == "時間が読めません: 5x（例: 5s、250ms、1m）")
        #expect(net.command(.phone, "message send").text == "使い方: message send JSON [--no-reply] [--timeout 5s]")
        let big = String(repeating: "x", count: 70_000)
        #expect(net.command(.phone, #"message send {"big": "\#(big)"}"#).text.contains("7009 payloadTooLarge（データが大きすぎます）"))
    }

    // MARK: - User info

    @Test func userInfoSentByHandIsDeliveredToldAndNotTakenForEitherAppsOwn() throws {
        let net = try Self.makeNetwork()
        let r = net.command(.phone, #"userinfo send {"note": "hi"}"#)
        #expect(r.isOK && r.text.hasPrefix("Queued user info u"), "\(r.text)")
        let id = try #require(r.value["id"]?.stringValue)
        #expect(net.runUntilQuiet())
        #expect(net.phone.drainNotices() == ["User info \(id) was delivered"])
        #expect(net.watch.drainNotices() == [#"← User info from the iPhone: {"note":"hi"}"#])
        #expect(Self.value(net, .watch, "errors count") == 0)
        #expect(Self.value(net, .phone, "link-errors count") == 0)
        // The sync key is the node's own.
        #expect(net.command(.phone, #"userinfo send {"peerlink.sync": 1}"#).text == "the key peerlink.sync is reserved for the node's sync")
    }

    @Test func theOutboxListsOutstandingTransfersInOrderWithSizeAgeAndStreamAndCancelKeepsOneFromArriving() throws {
        let net = try Self.makeNetwork()
        net.setLink(up: false)
        #expect(net.command(.phone, #"userinfo send {"n": 1}"#).isOK)
        #expect(net.command(.phone, #"userinfo send {"n": 2}"#).isOK)
        net.advance(by: 65_000)
        let outbox = net.command(.phone, "outbox")
        let items = try #require(outbox.value.arrayValue)
        let hand = items.filter { $0["kind"] == "by hand" }
        #expect(hand.count == 2)
        let seqs = hand.compactMap { $0["seq"]?.intValue }
        #expect(seqs == seqs.sorted() && seqs.count == 2)
        #expect(hand.allSatisfy { $0["stream"] == "ordinary" && ($0["ageMs"]?.intValue ?? 0) >= 65_000 && ($0["bytes"]?.intValue ?? 0) > 0 })
        #expect(outbox.text.contains("· 1 min 5 s ago · ordinary · by hand"), "\(outbox.text)")
        let first = try #require(hand.first?["id"]?.stringValue)
        let cancel = net.command(.phone, "userinfo cancel \(first.dropFirst())")
        #expect(cancel.isOK, "\(cancel.text)")
        #expect(net.command(.phone, "userinfo cancel \(first)").text == "No outstanding user info \(first)")
        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(net.watch.drainNotices() == [#"← User info from the iPhone: {"n":2}"#])
        #expect(net.phone.drainNotices().count == 1)
    }

    // MARK: - Files

    @Test func aFileSentByHandShowsItsProgressAndItsDeliveryAndTheWatchAppDoesNotCountIt() throws {
        let net = try Self.makeNetwork()
        try net.watchFiles.write("hand/run.bin", offset: 0, bytes: [UInt8](repeating: 7, count: 5_000_000))
        #expect(net.command(.watch, "file send /etc/passwd").text.hasPrefix("no file /etc/passwd"))
        net.faults.bandwidthBytesPerSecond = 1_000_000
        let r = net.command(.watch, "file send hand/run.bin")
        #expect(r.isOK && r.text.hasPrefix("Queued file f"), "\(r.text)")
        let id = try #require(r.value["id"]?.stringValue)
        net.advance(by: 3_500)
        let files = net.command(.watch, "files")
        let percent = try #require(files.value.arrayValue?.first?["percent"]?.intValue)
        #expect(percent > 0 && percent < 100, "\(files.text)")
        #expect(files.text.contains("\(id) · hand/run.bin · 5,000,000 B · \(percent)%"), "\(files.text)")
        net.faults.bandwidthBytesPerSecond = nil
        #expect(net.runUntilQuiet())
        #expect(net.watch.drainNotices() == ["File \(id) was delivered"])
        #expect(net.phone.drainNotices() == ["← File run.bin from the Apple Watch (5,000,000 B)"])
        #expect(Self.value(net, .watch, "files delivered") == 0, "the watch app's own transfers only")
        #expect(Self.value(net, .phone, "files received") == 0)
    }

    @Test func aFileCancelledBeforeItLeftNeverArrives() throws {
        let net = try Self.makeNetwork()
        try net.phoneFiles.write("a.bin", offset: 0, bytes: [1, 2, 3])
        net.setLink(up: false)
        let id = try #require(net.command(.phone, "file send a.bin").value["id"]?.stringValue)
        #expect(net.command(.phone, "files").value.arrayValue?.count == 1)
        #expect(net.command(.phone, "file cancel \(id)").isOK)
        #expect(net.command(.phone, "files").value.arrayValue?.isEmpty == true)
        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(net.watch.drainNotices().isEmpty && net.phone.drainNotices().isEmpty)
    }

    // MARK: - Context and complication

    @Test func aContextSetByHandArrivesAndBothSidesShowIt() throws {
        let net = try Self.makeNetwork()
        #expect(net.command(.phone, #"context set {"face": "rings"}"#).text == "Application context set")
        #expect(net.runUntilQuiet())
        #expect(net.watch.drainNotices() == [#"← Application context from the iPhone: {"face":"rings"}"#])
        let shown = net.command(.watch, "context")
        #expect(shown.value["received"] == ["face": "rings"])
        #expect(shown.text == "Context sent: none\nContext received: {\"face\":\"rings\"}")
        #expect(net.command(.phone, "context").value["sent"] == ["face": "rings"])
    }

    @Test func complicationDataPushedByHandReachesTheGaugeAndIsNotCountedAsThePhonesPush() throws {
        let net = try Self.makeNetwork()
        let r = net.command(.phone, #"complication push {"complication": {"todaySteps": 4321}}"#)
        #expect(r.isOK && r.text.hasPrefix("Sent complication info u"), "\(r.text)")
        #expect(net.runUntilQuiet())
        #expect(Self.value(net, .watch, "complication value") == 4321)
        #expect(Self.value(net, .phone, "complication pushes sent") == 0)
        #expect(net.phone.drainNotices().count == 1)
        #expect(net.command(.watch, #"complication push {"a": 1}"#).text == "complication info is sent from the iPhone only")
    }
}
