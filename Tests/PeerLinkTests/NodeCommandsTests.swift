import PeerLinkCore
import Testing

/// An app whose commands are a `CommandTable`, run by a real `NodeEngine`.
struct TableApp: NodeApp {
    static let commands = CommandTable<TableApp>(title: LocalizedText(ja: "テスト:", en: "test:"), [
        Command("ping", "[quietly]", ja: "ピン", en: "ping") { _, _, _ in .ok(text: "pong") },
        Command("ping loud", ja: "大きなピン", en: "a loud ping") { _, _, _ in .ok(text: "PONG") },
        Command("peek", "[NAME]", ja: "見るだけ", en: "only looks",
                readOnly: { _, c, _ in c.words.count == 2 ? .ok(text: "peeked at \(c.words[1])") : nil }) { _, _, ctx in
            ctx.setLocal("peeks", .int((ctx.local["peeks"]?.intValue ?? 0) + 1))
            return .ok(text: "peek ran")
        },
    ])

    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        Self.commands.run(&self, command, &ctx)
    }
}

/// The engine's own commands (`NodeCommands.engine`, for `help` and docs/PHONE.md) are the
/// ones it answers before the app, and an app's `CommandTable` dispatches its lines: the
/// longest verb first, else the first row of the line's first word, else an unknown command;
/// its `readOnly` column answers without running the command.
@Suite("Command tables through the engine")
struct NodeCommandsTests {
    static func engine() throws -> NodeEngine<TableApp> {
        try NodeEngine(app: TableApp(), role: .phone, store: MemoryStore(), config: LinkConfig(role: .phone, pairingSecret: nil),
                       calendar: LocalCalendar(identifier: "Asia/Tokyo")!, language: .en, now: 1_780_000_000_000, seed: 1, newIncarnation: 11)
    }

    @Test func everyRowOfTheEnginesTableIsAnsweredByTheEngineNotTheApp() throws {
        let engine = try Self.engine()
        #expect(NodeCommands.engine.rows.count >= 15)
        for row in NodeCommands.engine.rows {
            // The verb and its first argument word (`complication push` is the engine's only with a payload).
            let line = (row.verb + row.args.split(separator: " ").prefix(1).map(String.init)).joined(separator: " ")
            let reply = engine.command(NodeCommand(line: line)!, now: 1_780_000_001_000)
            #expect(reply.text != L10n.unknownCommand(line)(.en), "`\(line)` is in NodeCommands.engine but the engine passed it to the app")
        }
    }

    @Test func aLineGoesToTheLongestVerbElseToTheFirstRowOfItsFirstWordElseIsUnknown() throws {
        let engine = try Self.engine()
        func run(_ line: String) -> CommandReply { engine.command(NodeCommand(line: line)!, now: 1_780_000_001_000) }
        #expect(run("ping").text == "pong")
        #expect(run("ping loud").text == "PONG")
        #expect(run("ping quietly").text == "pong")
        #expect(run("pingloud") == .error(L10n.unknownCommand("pingloud")(.en)))
        #expect(run("frob ping") == .error("unknown command 'frob ping' (see `show help`)"))
    }

    @Test func theReadOnlyColumnAnswersWithoutRunningTheCommand() throws {
        let engine = try Self.engine()
        let now: EpochMs = 1_780_000_001_000
        #expect(engine.readOnlyCommand(NodeCommand(line: "peek door")!, now: now)?.text == "peeked at door")
        #expect(engine.command(NodeCommand(line: "peek door")!, now: now).text == "peeked at door")
        #expect(engine.readOnlyCommand(NodeCommand(line: "peek")!, now: now) == nil, "the column declines: the command runs")
        #expect(engine.readOnlyCommand(NodeCommand(line: "ping")!, now: now) == nil, "a row without the column")
        #expect(engine.command(NodeCommand(line: "peek")!, now: now).text == "peek ran")
        #expect(engine.command(NodeCommand(line: "peek door")!, now: now, readOnlyAsked: true).text == "peek ran",
                "a caller that asked readOnlyCommand first: the column is not asked again")
    }

    /// `query PATH…` only reads: it is answered read-only (as node processes and the simulator
    /// ask first), with the same reply the ordinary command gives, a missing value included.
    @Test func aQueryIsAnsweredReadOnlyWithTheCommandsReply() throws {
        let engine = try Self.engine()
        let now: EpochMs = 1_780_000_001_000
        for line in ["query link connected", "query count goal", "query digest", "query no such value"] {
            let c = NodeCommand(line: line)!
            let readOnly = engine.readOnlyCommand(c, now: now)
            #expect(readOnly != nil, "`\(line)` is answered read-only")
            #expect(readOnly == engine.command(c, now: now), "`\(line)`")
        }
        #expect(engine.readOnlyCommand(NodeCommand(line: "query no such value")!, now: now) == .error(L10n.nodeNoValue("no such value")(.en)))
        #expect(engine.readOnlyCommand(NodeCommand(line: "status")!, now: now) == nil, "other engine commands run as commands")
    }

    @Test(arguments: [AppLanguage.ja, .en])
    func helpListsEachRowsUsageAndTextInTheLanguage(language: AppLanguage) {
        let help = CommandSection.helpText([TableApp.commands.section, NodeCommands.engine], language).split(separator: "\n").map(String.init)
        #expect(help.first == (language == .ja ? "テスト:" : "test:"))
        #expect(help[1] == "  ping [quietly]  " + (language == .ja ? "ピン" : "ping"))
        #expect(help[2] == "  ping loud       " + (language == .ja ? "大きなピン" : "a loud ping"))
        for row in NodeCommands.engine.rows {
            #expect(help.contains { $0.hasPrefix("  \(row.usage) ") && $0.hasSuffix(row.help(language)) }, "no line for `\(row.usage)`")
        }
        #expect(TableApp.commands.section.markdown == """
            | command | effect |
            |---|---|
            | `ping [quietly]` | ping |
            | `ping loud` | a loud ping |
            | `peek [NAME]` | only looks |
            """)
    }
}
