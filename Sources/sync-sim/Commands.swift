import PhoneWatch
import PeerLinkCore
import PeerLinkPOSIX

let commandsUsage = """
    usage: sync-sim commands phone|watch|node|shell [--markdown] [--locale ja|en]

    Prints a node's commands from the table that drives its dispatch and `help`: the phone
    app's, the engine's that both nodes answer, or the node process shell's. Without --markdown
    as `help` shows them (in --locale, default en); with --markdown as the reference table kept
    in docs/PHONE.md, docs/WATCH.md and README.md between `<!-- commands … -->` markers.
    """

/// `sync-sim commands phone|watch|node|shell [--markdown] [--locale ja|en]`. Returns the exit status.
func runCommands(_ args: [String]) -> Int32 {
    if args.contains("--help") { print(commandsUsage); return 0 }
    var name: String?, markdown = false, language = AppLanguage.en
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--markdown": markdown = true
        case "--locale":
            guard i + 1 < args.count, let l = AppLanguage(rawValue: args[i + 1]) else {
                return commandsUsageError("--locale takes ja or en")
            }
            language = l
            i += 1
        case let word where !word.hasPrefix("--") && name == nil: name = word
        default: return commandsUsageError("unexpected argument '\(args[i])'")
        }
        i += 1
    }
    guard let name else { return commandsUsageError("name phone, watch, node or shell") }
    guard let section = CommandReference.section(name) else {
        return commandsUsageError("no commands named '\(name)' (phone, watch, node or shell)")
    }
    print(markdown ? section.markdown : section.helpText(language))
    return 0
}

func commandsUsageError(_ reason: String) -> Int32 {
    StandardError.write("sync-sim: error: commands: \(reason)\n")
    return 2
}
