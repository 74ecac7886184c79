#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// The control channel: commands on stdin, answers and announcements on stdout, logs.
extension NodeProcess {
    func readStdin() {
        guard let fd = options.controlInput else { return }
        // Into the socket reads' buffer (taken out at once): a fresh zeroed 64 KiB for every
        // read of the control channel was a quarter of the link benchmark's instructions.
        let n = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, 65_536)) }
        if n <= 0 {
            if n == 0 || (errno != EAGAIN && errno != EINTR) { stdinOpen = false }
            return
        }
        stdinBuffer.append(contentsOf: readBuffer[0..<n])
        while let nl = stdinBuffer.firstIndex(of: 0x0A) {
            let line = String(decoding: stdinBuffer[0..<nl], as: UTF8.self)
            stdinBuffer.removeFirst(nl + 1)
            handleLine(line.trimmingCharacters())
            handleOutputs()
            if !running { return }
        }
    }

    func handleLine(_ line: String) {
        guard !line.isEmpty, !line.hasPrefix("#") else { return }
        var tag: String?
        var text = Substring(line)
        if text.hasPrefix("@"), let space = text.firstIndex(of: " ") {
            tag = String(text[text.index(after: text.startIndex)..<space])
            text = text[text.index(after: space)...]
        }
        let reply: CommandReply
        if let cmd = NodeCommand(line: String(text)) {
            reply = shellCommand(cmd) ?? engine.readOnlyCommand(cmd, now: now) ?? engine.command(cmd, now: now, readOnlyAsked: true)
        } else {
            reply = .error(L10n.shellUnclosedQuote(String(text))(engine.ctx.language))
        }
        if let tag {
            emitLine(reply.isOK ? "@\(tag) ok \(reply.value.jsonString())" : "@\(tag) err \(PlistValue.string(reply.text).jsonString())")
        } else {
            emitLine(reply.isOK ? reply.text : "error: \(reply.text)")
        }
    }

    /// Commands of the shell itself: the clock, the time zone, connections, quitting.
    func shellCommand(_ c: NodeCommand) -> CommandReply? {
        let l = engine.ctx.language
        switch c.words.first {
        case "quit", "exit":
            running = false
            return .ok(text: L10n.shellBye(l))
        case "clock":
            return clockCommand(Array(c.words.dropFirst()))
        case "log":
            return logCommand(Array(c.words.dropFirst()))
        case "status":
            let r = engine.command(c, now: now)
            guard case .dictionary(var v) = r.value else { return r }
            v["connecting"] = .bool(connecting != nil)
            v["openConnections"] = .int(Int64(connections.count))
            return .ok(.dictionary(v), text: PlistValue.dictionary(v).jsonString())
        case "tz":
            guard c.words.count == 2, let cal = LocalCalendar(identifier: c.words[1]) else { return .error(L10n.shellTimeZoneUsage(l)) }
            engine.setCalendar(cal, now: now)
            return .ok(.string(c.words[1]), text: L10n.shellTimeZone(c.words[1])(engine.ctx.language))
        case "disconnect":
            for id in Array(connections.keys) { drop(id, reason: "disconnect command") }
            return .ok(text: L10n.shellDisconnected(l))
        case "help":
            return .ok(text: ShellCommands.helpText(l))
        default:
            return nil
        }
    }

    func clockCommand(_ args: [String]) -> CommandReply {
        let l = engine.ctx.language
        func value() -> CommandReply {
            .ok(["mono": .int(now), "wall": .int(now + engine.wallOffsetMs), "virtual": .bool(virtualNow != nil)],
                text: engine.ctx.calendar.dateTimeText(now + engine.wallOffsetMs, withMillis: true, withZone: true))
        }
        guard let verb = args.first else { return value() }
        let idle = args.count == 3 && args[2] == "idle-link" && verb != "offset"
        guard args.count == 2 || idle, let ms = Int64(args[1]) else {
            return .error(L10n.shellClockUsage(l))
        }
        switch verb {
        case "set", "advance":
            guard let v = virtualNow else { return .error(L10n.shellClockIsWall(l)) }
            let target = verb == "set" ? ms : v + ms
            guard target >= v else { return .error(L10n.shellClockCannotGoBack(l)) }
            virtualNow = target
            engine.tick(now: target, idleLink: idle)
            return value()
        case "offset":
            engine.setWallOffset(ms, now: now)
            return value()
        default:
            return .error(L10n.shellClockUsage(l))
        }
    }

    func emitLine(_ line: String) {
        stdout.append(contentsOf: Array(line.utf8))
        stdout.append(0x0A)
    }

    func flushStdout() {
        var start = 0
        while start < stdout.count {
            let n = stdout[start...].withUnsafeBytes { write(options.controlOutput, $0.baseAddress, $0.count) }
            if n <= 0 { if errno == EINTR || errno == EAGAIN { continue }; break }
            start += n
        }
        stdout.removeAll(keepingCapacity: true)
    }

    /// Writes a log line to the node's log file and, at `standardErrorLevel` and above, to
    /// stderr: `2026-06-01 07:31:05.123 +09:00 [watch] info: …`, in the node's time zone.
    func log(_ level: LogLevel, _ message: String) {
        let time = engine.ctx.calendar.dateTimeText(now + engine.wallOffsetMs, withMillis: true, withZone: true)
        let bytes = Array("\(time) [\(options.role)] \(level.rawValue): \(message)\n".utf8)
        if logFD >= 0 { _ = bytes.withUnsafeBytes { write(logFD, $0.baseAddress, $0.count) } }
        if let min = standardErrorLevel, level >= min { _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) } }
    }

    /// `log` (where the log is, what reaches stderr) and `log level debug|info|warning|error|off`.
    func logCommand(_ args: [String]) -> CommandReply {
        let l = engine.ctx.language
        let path = options.stateDirectory + "/node.log"
        switch args.count {
        case 0:
            let level = standardErrorLevel?.rawValue ?? "off"
            return .ok(["path": .string(path), "level": .string(level)], text: L10n.shellLog(path, level)(l))
        case 2 where args[0] == "level":
            if args[1] == "off" {
                standardErrorLevel = nil
            } else if let level = LogLevel(rawValue: args[1]) {
                standardErrorLevel = level
            } else {
                break
            }
            return logCommand([])
        default:
            break
        }
        return .error(L10n.shellLogUsage(l))
    }
}
