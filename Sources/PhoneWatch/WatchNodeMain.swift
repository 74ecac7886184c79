#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore
import PeerLinkPOSIX
import WatchNode

/// `watch-node`'s command line, as a function: the `watch-node` executable calls it, and so
/// does `sync-sim node watch …`.
public enum WatchNodeMain {
    static let usage = """
        usage: watch-node [options]            run the watch node (connects to its paired phone)
               watch-node pair [--state DIR] [--pair-file FILE]
                                               store the pairing code `phone-node pair` printed, read from
                                               standard input (or FILE, which must be 0600); a code is
                                               never an argument or an environment variable
               watch-node show SCREEN [--state DIR] [--locale ja|en] [--tz ZONE] [--json|--svg] [--at TIME]
                                               print a screen of the app from a state directory:
                                               workout, picker, rings, complication, goals, app, link;
                                               drawn with --svg: workout, rings, complication,
                                               activity-picker, goals

        options:
          --state DIR            state directory (default .state/watch, made 0700): state.sqlite, node.log,
                                 pairing.secret (0600)
          --connect HOST:PORT    the phone to connect to (e.g. 127.0.0.1:7700)
          --pair-file FILE       store the pairing code in FILE (as `phone-node pair` printed it; FILE
                                 must be 0600: one others can read is refused), then run
          --virtual-clock START  run on a virtual clock starting at START (ISO date-time or epoch ms)
          --tz ZONE              the device's time zone (default Asia/Tokyo)
          --locale ja|en         language of user-facing texts (default ja)
          --seed N               seed for jitter (default random)
          --sync full|normal     durability of the store and of received files (default normal: survives
                                 the process being killed; full also fsyncs)
          --verbose, -v          also show info log lines on stderr (by default only warnings and errors;
                                 every line goes to node.log; `log level LEVEL` changes it while running)
          --json                 (show) print the screen as JSON instead of text
          --svg                  (show) print the screen drawn, as one SVG document
          --at TIME              (show) the screen at TIME (ISO date-time or epoch ms) instead of now
          --help                 this text

        Commands are read from standard input, one per line: `help` lists the node's own, `show help`
        the watch app's (workout, hr, energy, steps, settings, app, runtime, show; see docs/WATCH.md).
        Replies go to standard output; log lines to node.log in the state directory (warnings and
        errors also to standard error), and a line when the node starts waiting for its peer and
        when it connects.
        """

    /// The text screens `watch-node show` prints (`show help` at the prompt lists them too).
    static let watchTextScreens = ["workout", "picker", "rings", "complication", "goals", "app", "link"]

    /// Runs `watch-node` with `arguments` (without the program name); returns the exit status.
    public static func run(_ arguments: [String], programName: String = "watch-node") -> Int32 {
        do {
            var args = arguments
            let showOptions = args.contains("show") ? try takeShowOptions(&args) : (json: false, svg: false, atMs: nil)
            let cl = try NodeCommandLine(arguments: args, role: .watch, subcommands: ["pair", "show"])
            switch cl.mode {
            case .help:
                print(usage)
                return 0
            case .subcommand("pair", let rest):
                guard rest.isEmpty else { throw UsageError("pair takes no argument: the code is read from standard input (or --pair-file FILE)") }
                try NodePairing.storeCode(from: cl.pairFile, stateDirectory: cl.stateDirectory)
                print("paired: the code is stored in \(cl.stateDirectory)/\(PairingFile.fileName)")
                return 0
            case .subcommand("show", let screen):
                let known = showOptions.svg ? WatchApp.svgScreens + ["picker"] : watchTextScreens
                guard screen.count == 1, known.contains(screen[0]) else {
                    throw UsageError("show takes a screen: \((showOptions.svg ? WatchApp.svgScreens : watchTextScreens).joined(separator: ", "))")
                }
                return try runShow(cl, role: .watch, app: WatchApp(), screen: screen, json: showOptions.json, svg: showOptions.svg, atMs: showOptions.atMs)
            case .subcommand(let s, _):
                throw UsageError("unknown command '\(s)'")
            case .run:
                if showOptions.json || showOptions.svg || showOptions.atMs != nil { throw UsageError("--json, --svg and --at go with `show`") }
                return try NodeMain.runNode(cl, role: .watch) { WatchApp() }
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
