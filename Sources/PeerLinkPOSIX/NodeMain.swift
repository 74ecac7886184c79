#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// The command line of a node executable for any `NodeApp`, the one `phone-node` and
/// `watch-node` speak (they add their own `show`): run the node, or `pair`. A process-mode
/// scenario run (`ProcessDriver`) can drive any executable built on it.
///
///     // Sources/water-node/main.swift
///     import PeerLinkPOSIX
///     let role: DeviceRole = CommandLine.arguments.dropFirst().first == "watch" ? .watch : .phone
///     exit(role == .phone
///         ? NodeMain.run(role: .phone, Array(CommandLine.arguments.dropFirst(2)), programName: "water-node phone") { WaterPhone() }
///         : NodeMain.run(role: .watch, Array(CommandLine.arguments.dropFirst(2)), programName: "water-node watch") { WaterWatch() })
public enum NodeMain {
    /// Runs the node with `arguments` (without the program name); returns the exit status:
    /// 0, 1 on a failure at run time, 2 on bad usage (with a one-line reason on stderr).
    public static func run<App: NodeApp>(role: DeviceRole, _ arguments: [String], programName: String, makeApp: () -> App) -> Int32 {
        do {
            let cl = try NodeCommandLine(arguments: arguments, role: role, subcommands: ["pair"])
            switch cl.mode {
            case .help:
                print(usage(role: role, programName: programName))
                return 0
            case .subcommand("pair", let rest):
                guard rest.isEmpty else { throw UsageError("pair takes no argument") }
                if role == .phone {
                    print(try NodePairing.create(stateDirectory: cl.stateDirectory))
                } else {
                    try NodePairing.storeCode(from: cl.pairFile, stateDirectory: cl.stateDirectory)
                    print("paired: the code is stored in \(cl.stateDirectory)/\(PairingFile.fileName)")
                }
                return 0
            case .subcommand(let s, _):
                throw UsageError("unknown command '\(s)'")
            case .run:
                return try runNode(cl, role: role, makeApp: makeApp)
            }
        } catch let e as UsageError {
            StandardError.write("\(programName): error: \(e)\n")
            return 2
        } catch {
            StandardError.write("\(programName): error: \(error)\n")
            return 1
        }
    }

    /// Runs the node `cl` describes (the `.run` mode) until it quits: a watch given
    /// `--pair-file` stores that code first. `phone-node` and `watch-node` run this too.
    public static func runNode<App: NodeApp>(_ cl: NodeCommandLine, role: DeviceRole, makeApp: () -> App) throws -> Int32 {
        if role == .watch, let file = cl.pairFile { try NodePairing.storeCode(from: file, stateDirectory: cl.stateDirectory) }
        let node = try NodeProcess(options: cl.processOptions(role: role), makeApp: makeApp)
        return node.run()
    }

    /// The usage text of such a node.
    public static func usage(role: DeviceRole, programName: String) -> String {
        let pair = role == .phone
            ? "\(programName) pair [--state DIR]   create a pairing secret and print its code (give it to the watch)"
            : "\(programName) pair [--state DIR] [--pair-file FILE]   store the phone's pairing code, read from standard input (or FILE, 0600)"
        let link = role == .phone
            ? "  --listen HOST:PORT     where to listen (default 127.0.0.1:7700; loopback only unless --allow-non-loopback)"
            : "  --connect HOST:PORT    the phone to connect to\n  --pair-file FILE       store the pairing code in FILE (0600), then run"
        return """
            usage: \(programName) [options]    run the \(role.rawValue) node
                   \(pair)

            options:
              --state DIR            state directory (default .state/\(role.rawValue), made 0700)
            \(link)
              --virtual-clock START  run on a virtual clock starting at START (ISO date-time or epoch ms)
              --wall-offset MS       start with the wall clock MS milliseconds off (signed; `clock offset` changes it)
              --tz ZONE              the device's time zone (default Asia/Tokyo)
              --locale ja|en         language of user-facing texts (default ja)
              --seed N               seed for jitter (default random)
              --sync full|normal     durability of the store (default normal)
              --verbose, -v          also show info log lines on stderr
              --help                 this text

            Commands are read from standard input, one per line (`help` lists the node's own).
            """
    }
}
