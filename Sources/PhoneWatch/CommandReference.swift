import PeerLinkCore
import PeerLinkPOSIX
import PhoneNode
import WatchNode

/// The command reference of each kind of node, from the command tables that drive its
/// dispatch and `help`: `phone` and `watch` are the apps' tables (PhoneApp+Commands.swift,
/// WatchApp+Commands.swift), `node` the engine's commands both answer (NodeCommands.swift),
/// `shell` the node process's own (ShellCommands.swift).
/// `sync-sim commands` prints them; docs/PHONE.md, docs/WATCH.md and README.md hold the Markdown between
/// `<!-- commands … -->` markers, and a test compares the two.
public enum CommandReference {
    /// The names `sync-sim commands` takes.
    public static let names = ["phone", "watch", "node", "shell"]

    /// The section named `name` (one of `names`); nil for another name.
    public static func section(_ name: String) -> CommandSection? {
        switch name {
        case "phone": PhoneApp.commands.section
        case "watch": WatchApp.commands.section
        case "node": NodeCommands.engine
        case "shell": ShellCommands.section
        default: nil
        }
    }

    /// Where each section's Markdown is kept: the document and the marker's name.
    public static let documents: [(name: String, path: String, marker: String)] = [
        ("phone", "docs/PHONE.md", ""), ("node", "docs/PHONE.md", "node"), ("watch", "docs/WATCH.md", ""), ("shell", "README.md", "shell"),
    ]
}
