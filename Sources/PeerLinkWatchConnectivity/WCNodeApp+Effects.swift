import PeerLinkCore

extension WCNodeApp {
    /// Received files come with their content (the host copies them into the side's inbox
    /// directory before the delegate sees them), up to 1 GiB.
    public static var receivedFileReadLimit: Int64 { 1 << 30 }

    /// A copy of a file to send that the node could not write fails its transfer.
    public mutating func onEffectOutcome(_ effect: AppEffect, _ outcome: Result<String, AppEffectError>, _ ctx: inout NodeContext) -> CommandReply? {
        guard case .failure(let e) = outcome else { return nil }
        ctx.logFailure(of: effect, e)
        if case .writeFile(let path, _) = effect, let host = box.session?.host {
            inEvent(&ctx) { ctx in host.copyFailed(path, e, &ctx) }
        }
        return nil
    }
}
