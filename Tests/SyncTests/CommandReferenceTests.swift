import Testing
import PeerLinkCore
import PeerLinkPOSIX

/// The command reference in docs is what `sync-sim commands NAME --markdown` prints from the
/// tables that drive the nodes' dispatch and `help`: when a verb, its arguments or its text
/// change in a table and not in the docs (or the other way round), this fails.
@Suite("Command reference in docs")
struct CommandReferenceTests {
    @Test(arguments: [("phone", "docs/PHONE.md", ""), ("node", "docs/PHONE.md", "node"), ("watch", "docs/WATCH.md", ""), ("shell", "README.md", "shell")])
    func theDocsBlockIsWhatTheTablePrints(name: String, document: String, marker: String) throws {
        let r = try ToolRun.run("sync-sim", ["commands", name, "--markdown"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try #require(readTextFile(Library.repositoryRoot + "/" + document), "cannot read \(document)")
        let block = try #require(CommandSection.referenceBlock(in: text, name: marker), "\(document) has no `<!-- commands \(marker) -->` block")
        #expect(r.stdout.count > 5)
        #expect(block == r.stdout.joined(separator: "\n"),
                "\(document)'s block differs from `sync-sim commands \(name) --markdown`; paste its output between the markers")
    }

    @Test func commandsPrintsHelpInTheLocaleAndRefusesBadUsage() throws {
        let ja = try ToolRun.run("sync-sim", ["commands", "watch", "--locale", "ja"])
        #expect(ja.status == 0 && ja.stdout.first == "Apple Watch アプリのコマンド:", "\(ja.stdout.prefix(2)) \(ja.stderr)")
        #expect(ja.stdout.contains { $0.hasPrefix("  workout start [TYPE]") && $0.hasSuffix("ワークアウトを開始") })
        for (args, reason) in [
            (["commands"], "sync-sim: error: commands: name phone, watch, node or shell"),
            (["commands", "tablet"], "sync-sim: error: commands: no commands named 'tablet' (phone, watch, node or shell)"),
            (["commands", "phone", "--locale", "fr"], "sync-sim: error: commands: --locale takes ja or en"),
        ] {
            let r = try ToolRun.run("sync-sim", args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderrLines == [reason], "\(args): \(r.stderr)")
        }
    }
}
