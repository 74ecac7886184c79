
extension NodeEngine {
    /// Answers a command that only reads, at monotonic time `mono`: `query PATH…`, or one the
    /// app answers by reading only (`show SCREEN --svg`). No session clock, no timers, no
    /// batch, no frames, so asking changes nothing about the run (the report captures screens
    /// this way; the scenario runner's queries and checks are asked this way in both modes).
    /// Nil when the command is not one of those; the caller then runs it as an ordinary
    /// command.
    public func readOnlyCommand(_ command: NodeCommand, now mono: EpochMs) -> CommandReply? {
        // The app gets the time and reads the context in place (a copy of it cost more than
        // most replies); it cannot change it, and the time is put back.
        let saved = ctx.now
        ctx.now = mono + wallOffsetMs
        defer { ctx.now = saved }
        if command.words.first == "query" { return queryReply(command) }
        return Self.readOnlyReply(app: &app, ctx: &ctx, command)
    }

    // `inout` only so that the context is read in place (see `NodeEngine.deadlines`): neither
    // changes anything.

    static func readOnlyReply(app: inout App, ctx: inout NodeContext, _ command: NodeCommand) -> CommandReply? {
        app.readOnlyReply(command, ctx)
    }

    static func isOwnTraffic(app: inout App, ctx: inout NodeContext, _ event: LinkEvent) -> Bool {
        app.isOwnTraffic(event, ctx)
    }

    static func query(app: inout App, ctx: inout NodeContext, _ path: [String]) -> PlistValue? {
        app.query(path, ctx)
    }

    /// Reads the session in place: `body` MUST NOT change it (the shell's loop reads its
    /// connection state and deadlines on every pass).
    public func readSession<R>(_ body: (inout LinkSession) -> R) -> R {
        body(&ctx.session)
    }

    /// True while the link is up (read in place).
    public var isConnected: Bool { readSession { $0.isConnected } }

    /// When the shell should next try to connect (`LinkSession.nextConnectAtMs`), read in
    /// place: the shell asks on every pass of its loop, and through `readSession` from
    /// another module the getter was handed a copy of the whole session.
    public var nextConnectAtMs: EpochMs? { readSession { $0.nextConnectAtMs } }
}
