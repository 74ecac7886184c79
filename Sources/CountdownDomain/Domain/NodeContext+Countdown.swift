import PeerLinkCore

extension NodeContext {
    /// Applies the writes of a `CountdownCommands` result to the replicated state, in order.
    /// Returns the first refusal (a deleted goal cannot be edited), leaving earlier writes.
    public mutating func apply(_ writes: [CountdownWrite]) -> ReplicaState.WriteRefusal? {
        for write in writes {
            let outcome: Result<HLCTimestamp, ReplicaState.WriteRefusal>
            switch write {
            case .setGoalFields(_, let fields), .setProfileFields(let fields): outcome = set(write.key, fields)
            case .deleteGoal: outcome = delete(write.key)
            }
            if case .failure(let refusal) = outcome {
                log(.warning, "countdown write refused: \(refusal)")
                return refusal
            }
        }
        return nil
    }
}
