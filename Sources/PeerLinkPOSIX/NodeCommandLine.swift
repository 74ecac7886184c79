import PeerLinkCore

/// A command-line mistake: the executable prints `error: <reason>` and exits 2.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// The options both node executables share, parsed from their arguments.
public struct NodeCommandLine: Sendable {
    public enum Mode: Sendable, Equatable {
        /// Run the node (the default).
        case run
        /// Print usage.
        case help
        /// A subcommand with its remaining words (`pair`, `show dashboard`…).
        case subcommand(String, [String])
    }

    public var mode: Mode = .run
    public var stateDirectory: String
    public var listen: String?
    public var connect: String?
    /// `--pair-file FILE` (watch): the file holding the pairing code `phone-node pair` printed.
    public var pairFile: String?
    /// `--virtual-clock START`: an ISO date-time (`2026-06-01T07:00:00Z`) or epoch ms.
    public var virtualStartMs: EpochMs?
    /// `--wall-offset MS`: the wall clock's offset from the monotonic one at launch (a device
    /// whose clock is wrong when the app starts; `clock offset MS` changes it later).
    public var wallOffsetMs: Int64 = 0
    public var timeZone = "Asia/Tokyo"
    public var language: AppLanguage = .ja
    public var seed: UInt64?
    public var synchronousFull = false
    public var allowNonLoopback = false
    /// `--verbose`: info lines on stderr too (by default only warnings and errors).
    public var verbose = false

    /// Parses `arguments` (without the program name). Throws `UsageError` on anything unknown.
    public init(arguments: [String], role: DeviceRole, subcommands: Set<String>) throws {
        stateDirectory = ".state/\(role.rawValue)"
        var i = 0
        func value(_ flag: String) throws -> String {
            guard i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") else { throw UsageError("\(flag) needs a value") }
            i += 1
            return arguments[i]
        }
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--help", "-h": mode = .help
            case "--state": stateDirectory = try value(a)
            case "--listen" where role == .phone: listen = try value(a)
            case "--connect" where role == .watch: connect = try value(a)
            case "--pair" where role == .watch:
                throw UsageError("--pair CODE is gone: a code on the command line can be read by every local user; give it on standard input to `watch-node pair --state DIR`, or in a file with --pair-file FILE")
            case "--pair-file" where role == .watch: pairFile = try value(a)
            case "--virtual-clock":
                let v = try value(a)
                guard let ms = Self.parseInstant(v) else { throw UsageError("--virtual-clock takes an ISO date-time like 2026-06-01T07:00:00Z or epoch milliseconds, not '\(v)'") }
                virtualStartMs = ms
            case "--wall-offset":
                let v = try value(a)
                guard let ms = Int64(v) else { throw UsageError("--wall-offset takes signed milliseconds, not '\(v)'") }
                wallOffsetMs = ms
            case "--tz":
                timeZone = try value(a)
                guard LocalCalendar(identifier: timeZone) != nil else { throw UsageError("unknown time zone '\(timeZone)'") }
            case "--locale":
                let v = try value(a)
                guard let l = AppLanguage(rawValue: v) else { throw UsageError("--locale takes ja or en, not '\(v)'") }
                language = l
            case "--seed":
                let v = try value(a)
                guard let s = UInt64(v) else { throw UsageError("--seed takes an unsigned integer, not '\(v)'") }
                seed = s
            case "--sync":
                let v = try value(a)
                guard v == "full" || v == "normal" else { throw UsageError("--sync takes full or normal, not '\(v)'") }
                synchronousFull = v == "full"
            case "--allow-non-loopback" where role == .phone: allowNonLoopback = true
            case "--verbose", "-v": verbose = true
            default:
                if a.hasPrefix("-") { throw UsageError("unknown option '\(a)' (see --help)") }
                if case .subcommand(let name, let rest) = mode {
                    mode = .subcommand(name, rest + [a])
                } else {
                    guard mode == .run, subcommands.contains(a) else { throw UsageError("unknown command '\(a)' (see --help)") }
                    mode = .subcommand(a, [])
                }
            }
            i += 1
        }
        if role == .phone, listen == nil { listen = "127.0.0.1:7700" }
        if let l = listen {
            guard let addr = SocketAddress(parsing: l) else { throw UsageError("--listen takes HOST:PORT, not '\(l)'") }
            if !addr.host.hasPrefix("127."), !allowNonLoopback {
                throw UsageError("refusing to listen on \(addr.host): nodes listen on loopback unless --allow-non-loopback is given")
            }
        }
        if let c = connect, SocketAddress(parsing: c) == nil { throw UsageError("--connect takes HOST:PORT, not '\(c)'") }
    }

    /// Epoch ms from `2026-06-01T07:00:00Z`, `…+09:00`, or a plain integer.
    public static func parseInstant(_ s: String) -> EpochMs? {
        ISOInstant.parseOrEpochMs(s)
    }

    /// Process options from the parsed flags.
    public func processOptions(role: DeviceRole) -> NodeProcessOptions {
        var o = NodeProcessOptions(role: role, stateDirectory: stateDirectory)
        o.listen = listen.flatMap(SocketAddress.init(parsing:))
        o.connect = connect.flatMap(SocketAddress.init(parsing:))
        o.virtualStartMs = virtualStartMs
        o.wallOffsetMs = wallOffsetMs
        o.timeZone = timeZone
        o.language = language
        o.seed = seed
        o.synchronousFull = synchronousFull
        o.standardErrorLevel = verbose ? .info : .warning
        return o
    }
}
