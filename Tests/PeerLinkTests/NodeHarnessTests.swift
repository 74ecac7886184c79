import Testing
import PeerLinkCore
import PeerLinkSim

/// A small app of its own under `NodeHarness`: commands in, what the scripted peer received
/// out, the peer's calls back in, effects performed by the engine.
struct TallyApp: NodeApp {
    var lastContext: PlistValue?
    var effectOutcomes: [String] = []

    static var receivedFileReadLimit: Int64 { 1 << 20 }

    static var commands: CommandTable<TallyApp> {
        CommandTable(title: LocalizedText(ja: "集計", en: "Tally"), [
            Command("add", "N", ja: "足す", en: "adds N") { app, c, ctx in
                guard c.words.count == 2, let n = Int64(c.words[1]) else { return .error("usage: add N") }
                let total = (ctx.local["total"]?.intValue ?? 0) + n
                ctx.setLocal("total", .int(total))
                if case .failure(let e) = ctx.transferUserInfo(["added": .int(n)]) { return .error("\(e)") }
                return .ok(.int(total))
            },
            Command("send-file", "NAME", ja: "送る", en: "sends a file") { app, c, ctx in
                let path = "out/\(c.words[1])"
                ctx.perform(.writeFile(path: path, bytes: Array("tally \(c.words[1])".utf8)))
                if case .failure(let e) = ctx.transferFile(path, metadata: nil) { return .error("\(e)") }
                return .ok()
            },
            Command("export", "NAME", ja: "書き出す", en: "exports") { app, c, ctx in
                ctx.perform(.export(name: c.words[1], bytes: Array("total".utf8)))
                return .ok(text: "pending")
            },
        ])
    }

    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        Self.commands.run(&self, command, &ctx)
    }

    mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        if case .didReceiveApplicationContext(let v) = event { lastContext = v }
    }

    mutating func onEffectOutcome(_ effect: AppEffect, _ outcome: Result<String, AppEffectError>, _ ctx: inout NodeContext) -> CommandReply? {
        switch outcome {
        case .success(let path):
            effectOutcomes.append("ok \(path)")
            return .ok(.string(path), text: "wrote \(path)")
        case .failure(let e):
            effectOutcomes.append("failed \(e)")
            return .error("\(e)")
        }
    }

    func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        switch path.first {
        case "total": ctx.local["total"] ?? .int(0)
        case "context": lastContext
        default: nil
        }
    }
}

@Suite("NodeHarness")
struct NodeHarnessTests {
    @Test func aCommandsUserInfoReachesTheScriptedPeer() throws {
        let h = try NodeHarness(role: .watch) { TallyApp() }
        #expect(h.command("add 2").value == 2)
        #expect(h.command("add 3").value == 5)
        #expect(h.settle())
        #expect(h.peerApp.userInfos == [["added": 2], ["added": 3]])
        #expect(h.query("total") == 5)
    }

    @Test func thePeersContextReachesTheApp() throws {
        let h = try NodeHarness(role: .phone) { TallyApp() }
        h.settle()
        let r = h.peer { ctx in ctx.updateApplicationContext(["goal": 2000]) }
        #expect((try? r.get()) != nil)
        #expect(h.settle())
        #expect(h.query("context") == ["goal": 2000])
    }

    @Test func aFileTheAppAsksToWriteIsSentWithItsContents() throws {
        let h = try NodeHarness(role: .watch) { TallyApp() }
        #expect(h.command("send-file a.txt").isOK)
        #expect(h.app.effectOutcomes == ["ok out/a.txt"])
        #expect(h.settle())
        let f = try #require(h.peerApp.files.first)
        #expect(f.name == "a.txt")
        #expect(f.contents == Array("tally a.txt".utf8))
    }

    @Test func anExportIsPerformedByTheEngineAndItsOutcomeIsTheReply() throws {
        let h = try NodeHarness(role: .phone) { TallyApp() }
        let r = h.command("export t.csv")
        #expect(r.isOK && r.text == "wrote exports/t.csv", "the outcome replaced the command's reply: \(r.text)")
        #expect(h.exports.file("t.csv") == Array("total".utf8))
        let bad = h.command("export ../x")
        #expect(!bad.isOK && bad.text.contains("bad file name"))
        #expect(h.exports.names == ["t.csv"])
    }

    @Test func anAppThatRestartsKeepsWhatItCommitted() throws {
        let h = try NodeHarness(role: .watch) { TallyApp() }
        h.command("add 4")
        try h.restart()
        #expect(h.query("total") == 4)
        h.settle()
        #expect(h.peerApp.userInfos == [["added": 4]], "delivered once, after the restart")
    }

    @Test func aMessageReachesThePeerOnlyWhileTheLinkIsUp() throws {
        let h = try NodeHarness(role: .phone) { TallyApp() }
        h.settle()
        h.withContext { ctx in _ = ctx.sendMessage(["ping": 1], replyExpected: false) }
        h.settle()
        h.setLink(up: false)
        h.advance(by: 10_000)
        h.withContext { ctx in _ = ctx.sendMessage(["ping": 2], replyExpected: false) }
        h.setLink(up: true)
        h.settle()
        #expect(h.peerApp.messages == [.dictionary(["ping": 1])], "a live message is not queued")
    }
}
