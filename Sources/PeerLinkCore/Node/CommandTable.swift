
/// What a person reads about one command: the words that name it, what follows them, and what
/// it does, in the node's language. The rows of `help` and of the command reference in docs
/// (`sync-sim commands`) are made of these.
public struct CommandSynopsis: Sendable, Equatable {
    /// The words that name the command (`["widget", "tap"]`); a command line starting with
    /// them goes to it.
    public let verb: [String]
    /// What follows the verb (`N [--from T]`), as the usage lines write it; may be empty.
    public let args: String
    /// One line on what the command does, for `help`.
    public let help: LocalizedText
    /// The reference's longer English text (docs only); the reference shows `help.en` without it.
    public let detail: String?

    public init(_ verb: String, _ args: String = "", help: LocalizedText, detail: String? = nil) {
        self.verb = verb.split(separator: " ").map(String.init)
        self.args = args
        self.help = help
        self.detail = detail
    }

    /// A row for a section (`NodeCommands`, `ShellCommands`): `verb args`, described by `ja`/`en`.
    public init(_ verb: String, _ args: String = "", ja: String, en: String, detail: String? = nil) {
        self.init(verb, args, help: LocalizedText(ja: ja, en: en), detail: detail)
    }

    /// `verb args`, as typed.
    public var usage: String { args.isEmpty ? verb.joined(separator: " ") : verb.joined(separator: " ") + " " + args }
}

/// One command of an app: its synopsis and its handlers.
public struct Command<App>: Sendable {
    public let synopsis: CommandSynopsis
    /// Runs the command (the app's `onCommand` calls it through `CommandTable.run`).
    public let run: @Sendable (inout App, NodeCommand, inout NodeContext) -> CommandReply
    /// Answers the command by reading only (`show SCREEN --svg`), without a batch or a commit;
    /// nil, or a nil answer, runs it as an ordinary command (`NodeApp.readOnlyReply`).
    public let readOnly: (@Sendable (App, NodeCommand, NodeContext) -> CommandReply?)?

    /// A command named `verb` (words separated by spaces) taking `args`, described by `ja`/`en`.
    public init(
        _ verb: String, _ args: String = "", ja: String, en: String, detail: String? = nil,
        readOnly: (@Sendable (App, NodeCommand, NodeContext) -> CommandReply?)? = nil,
        run: @escaping @Sendable (inout App, NodeCommand, inout NodeContext) -> CommandReply
    ) {
        self.synopsis = CommandSynopsis(verb, args, ja: ja, en: en, detail: detail)
        self.run = run
        self.readOnly = readOnly
    }
}

/// An app's commands, in the order `help` and the reference list them: they drive its
/// dispatch (`run`), its read-only answers (`readOnlyReply`), its `help` and the reference.
///
/// A command line goes to the row whose verb words it starts with, the longest verb first (a
/// tie goes to the earlier row); a line whose words start no row's verb goes to the first row
/// of its first word (whose handler answers with its usage, as `workout fly` does); a first
/// word no row has is an unknown command (`L10n.unknownCommand`).
public struct CommandTable<App>: Sendable {
    /// The heading of the table's part of `help` (`phone` / `iPhone`).
    public let title: LocalizedText
    public let commands: [Command<App>]
    /// What `help` prints below the rows (what `T` or `REF` stand for); nil for nothing.
    public let notes: LocalizedText?
    /// Indices into `commands`, the longest verb first, ties in table order.
    let byLength: [Int]
    /// `byLength` by each row's first verb word (the rows a line of that first word can go to).
    let byFirstWord: [String: [Int]]
    /// The first row of each first verb word (where a line that starts no verb goes).
    let firstRowOfWord: [String: Int]
    /// The rows with no verb words (they take any line), in `byLength` order.
    let emptyVerbRows: [Int]

    public init(title: LocalizedText, notes: LocalizedText? = nil, _ commands: [Command<App>]) {
        self.title = title
        self.commands = commands
        self.notes = notes
        byLength = commands.indices.sorted {
            let a = commands[$0].synopsis.verb.count, b = commands[$1].synopsis.verb.count
            return a != b ? a > b : $0 < $1
        }
        var byFirst: [String: [Int]] = [:]
        var empty: [Int] = []
        for i in byLength {
            if let w = commands[i].synopsis.verb.first { byFirst[w, default: []].append(i) } else { empty.append(i) }
        }
        var firstRow: [String: Int] = [:]
        for (i, c) in commands.enumerated() { if let w = c.synopsis.verb.first, firstRow[w] == nil { firstRow[w] = i } }
        byFirstWord = byFirst
        firstRowOfWord = firstRow
        emptyVerbRows = empty
    }

    /// A table with no commands: every line is unknown.
    public init() { self.init(title: LocalizedText(ja: "", en: ""), []) }

    /// The row `words` go to; nil for an unknown first word.
    public func command(for words: [String]) -> Command<App>? {
        // Only rows of the line's first word can match (or rows with no verb words, which
        // sort last in `byLength`): the same row the whole `byLength` scan finds.
        guard let first = words.first else { return emptyVerbRows.first.map { commands[$0] } }
        if let rows = byFirstWord[first] {
            for i in rows where words.starts(with: commands[i].synopsis.verb) { return commands[i] }
        }
        if let i = emptyVerbRows.first { return commands[i] }
        return firstRowOfWord[first].map { commands[$0] }
    }

    /// Runs `command` through its row; an unknown command gets `L10n.unknownCommand`.
    public func run(_ app: inout App, _ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        guard let row = self.command(for: command.words) else { return .error(L10n.unknownCommand(command.raw)(ctx.language)) }
        return row.run(&app, command, &ctx)
    }

    /// The read-only answer of `command`'s row; nil when it has none or declines.
    public func readOnlyReply(_ app: App, _ command: NodeCommand, _ ctx: NodeContext) -> CommandReply? {
        self.command(for: command.words)?.readOnly?(app, command, ctx)
    }

    /// The rows as `help` and the reference show them.
    public var section: CommandSection {
        CommandSection(title: title, rows: commands.map(\.synopsis), notes: notes)
    }
}
