/// What the shells read of the engine between entry points: deadlines, the link's status,
/// the context.
extension NodeEngine {
    /// The earliest time `tick` has work other than keeping an idle link alive.
    public var nextWorkDeadline: EpochMs? { deadlines.work }

    /// The earliest time `tick` has work (session timers, reconnect, app timers).
    public var nextDeadline: EpochMs? { Self.nextDeadline(app: &app, ctx: &ctx, wallOffsetMs: wallOffsetMs) }

    /// `nextDeadline` and `nextWorkDeadline` at once (the app's deadline asked once); the
    /// simulator asks after every entry point.
    public var deadlines: (all: EpochMs?, work: EpochMs?) {
        Self.deadlines(app: &app, ctx: &ctx, wallOffsetMs: wallOffsetMs)
    }

    /// What the simulator's settle check reads after every step: connected, a handshake under
    /// way, user info awaiting acknowledgement or a replica delta in flight.
    public var linkStatus: (isConnected: Bool, isHandshaking: Bool, hasOutstanding: Bool) {
        Self.linkStatus(&ctx)
    }

    /// The session's user-info transfers not yet acknowledged, read in place: asked through
    /// `readContext` from another module, the getter was handed a copy of the whole session
    /// (the simulator's transfer ledger asks after every entry point).
    public var outstandingUserInfoCount: Int { Self.outstandingUserInfoCount(&ctx) }

    /// Runs `body` on the context in place, to read it: `inout` only so that nothing is copied
    /// (see below). `body` MUST NOT change the context; the simulator's checks use it after
    /// every entry point.
    public func readContext<R>(_ body: (inout NodeContext) -> R) -> R {
        body(&ctx)
    }

    // Read through `inout` only so that they are read in place: a class's stored struct
    // passed by value is copied first (every array and dictionary in it retained, then
    // released), which cost more than the reading itself. Neither changes anything.

    /// `deadlines.all` alone (the process shell asks twice per pass of its loop).
    static func nextDeadline(app: inout App, ctx: inout NodeContext, wallOffsetMs: Int64) -> EpochMs? {
        let appDeadline = app.nextDeadline(ctx).map { $0 - wallOffsetMs }
        guard let session = ctx.session.nextDeadline() else { return appDeadline }
        return min(session, appDeadline ?? session)
    }

    static func deadlines(app: inout App, ctx: inout NodeContext, wallOffsetMs: Int64) -> (all: EpochMs?, work: EpochMs?) {
        let appDeadline = app.nextDeadline(ctx).map { $0 - wallOffsetMs }
        func earliest(_ x: EpochMs?) -> EpochMs? {
            guard let x else { return appDeadline }
            return min(x, appDeadline ?? x)
        }
        let session = ctx.session.deadlines
        return (earliest(session.all), earliest(session.work))
    }

    static func outstandingUserInfoCount(_ ctx: inout NodeContext) -> Int { ctx.session.outstandingUserInfoCount }

    static func linkStatus(_ ctx: inout NodeContext) -> (isConnected: Bool, isHandshaking: Bool, hasOutstanding: Bool) {
        (ctx.session.isConnected, ctx.session.handshakesInProgress > 0,
         ctx.session.outstandingUserInfoCount > 0 || ctx.sync.persistent.inFlightUpTo != nil)
    }
}
