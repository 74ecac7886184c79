@testable import PeerLinkCore
import Testing

/// `NodeCommand(line:)`: the words of a command line, split on the bytes of an ASCII line and
/// on the `Character`s of any other.
@Suite struct NodeCommandLineTests {
    @Test func quotesAndEscapesMakeOneWord() {
        #expect(NodeCommand(line: "goal edit goal-2 --title again")?.words == ["goal", "edit", "goal-2", "--title", "again"])
        #expect(NodeCommand(line: #"say "a b"  c"#)?.words == ["say", "a b", "c"])
        #expect(NodeCommand(line: #"json "{\"k\": \"v \\ w\"}""#)?.words == ["json", #"{"k": "v \ w"}"#])
        #expect(NodeCommand(line: #"empty "" x"#)?.words == ["empty", "", "x"], "an empty quoted word is a word")
        #expect(NodeCommand(line: #"a\b"#)?.words == [#"a\b"#], "a backslash outside quotes is itself")
        #expect(NodeCommand(line: "   ")?.words == [])
        #expect(NodeCommand(line: "")?.words == [])
        #expect(NodeCommand(line: "a\r\nb c")?.words == ["a\r\nb", "c"], "CR LF is one Character but neither byte splits")
    }

    @Test func anUnclosedQuoteIsNoCommand() {
        #expect(NodeCommand(line: #"say "open"#) == nil)
        #expect(NodeCommand(line: #"say "esc\""#) == nil, "an escaped quote does not close")
        #expect(NodeCommand(line: "名前 \"開いた") == nil)
    }

    @Test func aLineThatIsNotASCIISplitsOnCharacters() {
        #expect(NodeCommand(line: "goal add 合格 --date 2027-02-01")?.words == ["goal", "add", "合格", "--date", "2027-02-01"])
        #expect(NodeCommand(line: #"goal add "試験 本番""#)?.words == ["goal", "add", "試験 本番"])
        // A space joined with a combining mark is one Character, not a space: it does not split.
        #expect(NodeCommand(line: "a \u{301}b")?.words == ["a \u{301}b"])
        // The same for a quote: it neither opens nor closes.
        #expect(NodeCommand(line: "x \"\u{301}y")?.words == ["x", "\"\u{301}y"])
    }

    /// Random lines over the characters that matter (and a few others): the byte path and the
    /// `Character` path give the same words, or both say the quote is not closed.
    @Test(arguments: [UInt64(1), 2, 3, 20_261_202])
    func bytesAndCharactersAgreeOnASCII(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet: [Character] = [" ", " ", "\"", "\\", "a", "b", "-", "{", ":", "\r", "\n", "\t", "7"]
        for n in 0..<2_000 {
            let line = String((0..<Int(rng.next() % 24)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            let viaBytes = NodeCommand(line: line)?.words
            #expect(viaBytes == NodeCommand.words(characters: line), "seed \(seed), line \(n): \(line.debugDescription)")
        }
    }
}
