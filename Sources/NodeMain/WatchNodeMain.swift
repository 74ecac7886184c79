#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLink
import Shared
import WatchNode

/// `watch-node`'s command line, as a function: the `watch-node` executable calls it, and so
/// does `sync-sim node watch …`.
public enum WatchNodeMain {
    static let usage = """
        usage: watch-node [options]            run the watch node (connects to its paired phone)

        options:
          --state DIR            state directory (default .state/watch): state.sqlite, node.log, pairing.secret
          --connect HOST:PORT    the phone to connect to (e.g. 127.0.0.1:7700)
          --pair CODE            store the pairing code printed by `phone-node pair`, then run
          --virtual-clock START  run on a virtual clock starting at START (ISO date-time or epoch ms)
          --tz ZONE              the device's time zone (default Asia/Tokyo)
          --locale ja|en         language of user-facing texts (default ja)
          --seed N               seed for jitter (default random)
          --sync full|normal     durability of the store and of received files (default normal: survives
                                 the process being killed; full also fsyncs)
          --verbose, -v          also show info log lines on stderr (by default only warnings and errors;
                                 every line goes to node.log; `log level LEVEL` changes it while running)
          --help                 this text

        Commands are read from standard input, one per line: `help` lists the node's own, `show help`
        the watch app's (workout, hr, energy, steps, settings, app, runtime, show; see docs/WATCH.md).
        Replies go to standard output; log lines to node.log in the state directory (warnings and
        errors also to standard error), and a line when the node starts waiting for its peer and
        when it connects.
        """

    /// Runs `watch-node` with `arguments` (without the program name); returns the exit status.
    public static func run(_ arguments: [String], programName: String = "watch-node") -> Int32 {
        do {
            let cl = try NodeCommandLine(arguments: arguments, role: .watch, subcommands: [])
            switch cl.mode {
            case .help:
                print(usage)
                return 0
            case .subcommand(let s, _):
                throw UsageError("unknown command '\(s)'")
            case .run:
                if let code = cl.pairCode, let secret = PairingFile.secret(fromCode: code) {
                    try makeDirectories(cl.stateDirectory)
                    try PairingFile.write(secret, directory: cl.stateDirectory)
                }
                let node = try NodeProcess(options: cl.processOptions(role: .watch)) { WatchApp() }
                return node.run()
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
