import Shared

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
        if let ms = Int64(s) { return ms }
        return ISOInstant.parse(s)
    }

    /// Process options from the parsed flags.
    public func processOptions(role: DeviceRole) -> NodeProcessOptions {
        var o = NodeProcessOptions(role: role, stateDirectory: stateDirectory)
        o.listen = listen.flatMap(SocketAddress.init(parsing:))
        o.connect = connect.flatMap(SocketAddress.init(parsing:))
        o.virtualStartMs = virtualStartMs
        o.timeZone = timeZone
        o.language = language
        o.seed = seed
        o.synchronousFull = synchronousFull
        o.standardErrorLevel = verbose ? .info : .warning
        return o
    }
}

/// ISO-8601 date-times with an explicit offset: `2026-06-01T07:00:00Z`, `…T07:00:00.250+09:00`.
public enum ISOInstant {
    public static func parse(_ s: String) -> EpochMs? {
        let u = Array(s.utf8)
        guard u.count >= 20, let date = CivilDate(iso: String(decoding: u[0..<10], as: UTF8.self)), u[10] == UInt8(ascii: "T") else { return nil }
        func num(_ a: Int, _ b: Int) -> Int? { Int(String(decoding: u[a..<b], as: UTF8.self)) }
        guard let h = num(11, 13), u[13] == UInt8(ascii: ":"), let m = num(14, 16), u[16] == UInt8(ascii: ":"), let sec = num(17, 19),
              h < 24, m < 60, sec < 60 else { return nil }
        var i = 19
        var millis = 0
        if i < u.count, u[i] == UInt8(ascii: ".") {
            var digits = 0
            i += 1
            while i < u.count, u[i] >= 0x30, u[i] <= 0x39 {
                if digits < 3 { millis = millis * 10 + Int(u[i] - 0x30) }
                digits += 1
                i += 1
            }
            for _ in digits..<3 where digits < 3 { millis *= 10 }
        }
        guard i < u.count else { return nil }
        var offsetMinutes = 0
        if u[i] == UInt8(ascii: "Z") {
            i += 1
        } else if u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") {
            guard i + 6 == u.count, let oh = num(i + 1, i + 3), u[i + 3] == UInt8(ascii: ":"), let om = num(i + 4, i + 6) else { return nil }
            offsetMinutes = (oh * 60 + om) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == u.count else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + sec) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millis)
    }
}
