import Shared

extension NodeEngine {
    /// Answers a command the app answers by reading only (`show SCREEN --svg`), at monotonic
    /// time `mono`: no session clock, no timers, no batch, no frames, so asking changes nothing
    /// about the run (the report captures screens this way). Nil when the app does not answer
    /// `command` so; the caller then runs it as an ordinary command.
    public func readOnlyCommand(_ command: NodeCommand, now mono: EpochMs) -> CommandReply? {
        var view = ctx  // a copy (its storage is shared until written): the app gets the time, nothing else changes
        view.now = mono + wallOffsetMs
        return app.readOnlyReply(command, view)
    }
}
