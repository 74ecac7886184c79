
/// A titled list of command synopses: one app's commands, the engine's, the shell's. `help`
/// prints sections in the node's language; the command reference in docs is a section's
/// Markdown table (`sync-sim commands phone|watch|node --markdown`).
public struct CommandSection: Sendable, Equatable {
    public let title: LocalizedText
    public let rows: [CommandSynopsis]
    /// Printed by `help` below the rows; nil for nothing.
    public let notes: LocalizedText?

    public init(title: LocalizedText, rows: [CommandSynopsis], notes: LocalizedText? = nil) {
        self.title = title
        self.rows = rows
        self.notes = notes
    }

    /// Usages up to this long are padded into one column; longer ones are followed by two spaces.
    static let usageColumn = 44

    /// The section for `help`: the title, one line per row (`  usage   what it does`), the notes.
    public func helpText(_ language: AppLanguage) -> String {
        let width = rows.map(\.usage.count).filter { $0 <= Self.usageColumn }.max() ?? 0
        var lines = [title(language)]
        for row in rows {
            let pad = String(repeating: " ", count: max(width - row.usage.count, 0) + 2)
            lines.append("  " + row.usage + pad + row.help(language))
        }
        if let notes { lines.append(contentsOf: notes(language).split(separator: "\n").map { "  " + $0 }) }
        return lines.joined(separator: "\n")
    }

    /// Several sections for `help`, a blank line between them.
    public static func helpText(_ sections: [CommandSection], _ language: AppLanguage) -> String {
        sections.map { $0.helpText(language) }.joined(separator: "\n\n")
    }

    /// The reference table: `| command | effect |`, one row per command, the effect being its
    /// `detail` or else its English help; `|` is escaped as Markdown tables need.
    public var markdown: String {
        func cell(_ s: String) -> String { String(s.flatMap { $0 == "|" ? ["\\", "|"] : [$0] }) }
        let body = rows.map { "| `\(cell($0.usage))` | \(cell($0.detail ?? $0.help.en)) |" }
        return (["| command | effect |", "|---|---|"] + body).joined(separator: "\n")
    }

    /// The reference block in a document: the lines between `<!-- commands NAME -->` (or
    /// `<!-- commands -->` for an empty name) and the next `<!-- /commands -->`, joined by
    /// newlines; nil when the markers are missing.
    public static func referenceBlock(in document: String, name: String = "") -> String? {
        let open = name.isEmpty ? "<!-- commands -->" : "<!-- commands \(name) -->"
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: open),
              let end = lines[(start + 1)...].firstIndex(of: "<!-- /commands -->") else { return nil }
        return lines[(start + 1)..<end].joined(separator: "\n")
    }
}
