#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore
import PeerLinkPOSIX
import PhoneNode

/// `phone-node`'s command line, as a function: the `phone-node` executable calls it, and so
/// does `sync-sim node phone …`, which is how `sync-sim` runs its phone without a separate
/// build of `phone-node`.
public enum PhoneNodeMain {
    static let usage = """
        usage: phone-node [options]            run the phone node (listens for its paired watch)
               phone-node pair [--state DIR]   create a pairing secret (32 random bytes) and print its code
               phone-node show SCREEN [--state DIR] [--locale ja|en] [--tz ZONE] [--json|--svg] [--at TIME]
                                               print a screen of the app from a state directory:
                                               dashboard, history [weekly|monthly], settings, widgets,
                                               notifications, goals, workouts, live, effects; drawn
                                               with --svg: dashboard, history-weekly, history-monthly,
                                               settings, widget-small, widget-medium, widget-countdown,
                                               goals, notifications

        options:
          --state DIR            state directory (default .state/phone, made 0700): state.sqlite, node.log,
                                 pairing.secret (0600),
                                 exports/ (CSV files written by `export csv`)
          --listen HOST:PORT     where to listen (default 127.0.0.1:7700; loopback only unless --allow-non-loopback)
          --allow-non-loopback   allow --listen on an address that is not loopback (the link is then reachable
                                 from other machines)
          --virtual-clock START  run on a virtual clock starting at START (ISO date-time or epoch ms),
                                 moved by `clock set|advance` on the control channel
          --tz ZONE              the device's time zone (default Asia/Tokyo)
          --locale ja|en         language of user-facing texts (default ja)
          --seed N               seed for jitter (default random)
          --sync full|normal     durability of the store and of received files: normal (default) survives
                                 the process being killed; full also fsyncs (survives a power loss)
          --json                 (show) print the screen as JSON instead of text
          --svg                  (show) print the screen drawn, as one SVG document
          --at TIME              (show) the screen at TIME (ISO date-time or epoch ms) instead of now
          --verbose, -v          also show info log lines on stderr (by default only warnings and errors;
                                 every line goes to node.log; `log level LEVEL` changes it while running)
          --help                 this text

        Commands are read from standard input, one per line (`help` and `show help` list them;
        docs/PHONE.md is the reference).
        Replies go to standard output; log lines to node.log in the state directory (warnings and
        errors also to standard error), and a line when the node starts waiting for its peer and
        when it connects.
        """

    /// Runs `phone-node` with `arguments` (without the program name); returns the exit status.
    public static func run(_ arguments: [String], programName: String = "phone-node") -> Int32 {
        do {
            var args = arguments
            let showOptions = args.contains("show") ? try takeShowOptions(&args) : (json: false, svg: false, atMs: nil)
            let cl = try NodeCommandLine(arguments: args, role: .phone, subcommands: ["pair", "show"])
            switch cl.mode {
            case .help:
                print(usage)
                return 0
            case .subcommand("pair", _):
                print(try NodePairing.create(stateDirectory: cl.stateDirectory))
                if isatty(1) == 1 { StandardError.write("give this code to the watch on its standard input: watch-node pair --state DIR\n") }
                return 0
            case .subcommand("show", let screen):
                let known = showOptions.svg ? PhoneApp.svgScreens + ["history"] : PhoneApp.screens
                guard let first = screen.first, known.contains(first) else {
                    throw UsageError("show takes a screen: \((showOptions.svg ? PhoneApp.svgScreens : PhoneApp.screens).joined(separator: ", "))")
                }
                return try runShow(cl, role: .phone, app: PhoneApp(), screen: screen, json: showOptions.json, svg: showOptions.svg, atMs: showOptions.atMs)
            case .subcommand(let s, _):
                throw UsageError("unknown command '\(s)'")
            case .run:
                if showOptions.json || showOptions.svg || showOptions.atMs != nil { throw UsageError("--json, --svg and --at go with `show`") }
                return try NodeMain.runNode(cl, role: .phone) { PhoneApp() }
            }
        } catch let e as UsageError {
            StandardError.write("\(programName): error: \(e)\n")
            return 2
        } catch {
            StandardError.write("\(programName): error: \(error)\n")
            return 1
        }
    }
}


/// The options `show` takes that the node's command line does not: `--json`, `--svg`, `--at TIME`.
func takeShowOptions(_ args: inout [String]) throws -> (json: Bool, svg: Bool, atMs: EpochMs?) {
    var json = false, svg = false
    var at: EpochMs?
    if let i = args.firstIndex(of: "--json") {
        json = true
        args.remove(at: i)
    }
    if let i = args.firstIndex(of: "--svg") {
        svg = true
        args.remove(at: i)
    }
    if json && svg { throw UsageError("--json and --svg: choose one") }
    if let i = args.firstIndex(of: "--at") {
        guard i + 1 < args.count, let ms = NodeCommandLine.parseInstant(args[i + 1]) else {
            throw UsageError("--at takes an ISO date-time like 2026-06-01T07:00:00+09:00 or epoch milliseconds")
        }
        at = ms
        args.removeSubrange(i...(i + 1))
    }
    return (json, svg, at)
}

/// `phone-node show SCREEN` and `watch-node show SCREEN`: loads the state directory's
/// replicated and local state into a throwaway in-memory copy, opens the app on it at `atMs`
/// (default: the wall clock) and prints the screen (text, JSON, or drawn with `svg`). The
/// state file is only read, never changed or quarantined (a running node may own it).
func runShow<App: NodeApp>(_ cl: NodeCommandLine, role: DeviceRole, app: App, screen: [String], json: Bool, svg: Bool = false, atMs: EpochMs?) throws -> Int32 {
    let program = role == .phone ? "phone-node" : "watch-node"
    let path = cl.stateDirectory + "/" + NodeStoreFile.fileName
    guard access(path, F_OK) == 0 else { throw UsageError("no state at \(path)") }
    let copy = MemoryStore()
    do {
        let file = try SQLiteStore(path: path)
        var batch = WriteBatch()
        // `app_local` is NodeContext's local table (internal to PeerLink; see the report).
        for table in [ReplicaPersistence.records, ReplicaPersistence.meta, StoreTable("app_local")] {
            for row in try file.scan(table) { batch.put(table, row.key, row.value) }
        }
        try copy.commit(batch)
    } catch {
        StandardError.write("\(program): error: cannot read \(path): \(error)\n")
        return 1
    }
    guard let calendar = LocalCalendar(identifier: cl.timeZone) else { throw UsageError("unknown time zone '\(cl.timeZone)'") }
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    let now = atMs ?? (EpochMs(ts.tv_sec) * 1000 + EpochMs(ts.tv_nsec / 1_000_000))
    let engine = try NodeEngine(
        app: app, role: role, store: copy, config: LinkConfig(role: role, pairingSecret: nil), calendar: calendar,
        language: cl.language, now: now, seed: 1, newIncarnation: 1)
    let words = ["show"] + screen + (svg ? ["--svg"] : [])
    let command = NodeCommand(words: words, raw: words.joined(separator: " "))
    let reply = engine.readOnlyCommand(command, now: now) ?? engine.command(command, now: now, readOnlyAsked: true)
    guard reply.isOK else {
        StandardError.write("\(program): error: \(reply.text)\n")
        return 2
    }
    print(json ? reply.value.jsonString() : reply.text)
    return 0
}
