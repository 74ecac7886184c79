/// What replication needs to know of an app's replicated state: which collections are
/// grow-only sets. A grow-only record is written once and never deleted: a second write of
/// it and a delete are refused, and a tombstone for it from the peer is ignored. Every other
/// collection holds last-writer-wins records that can be changed and deleted.
///
/// The app gives it (`NodeApp.replicaSchema`); replication has no list of its own.
public struct ReplicaSchema: Sendable, Equatable {
    public var growOnlyCollections: Set<String>

    /// `growOnly`: the collections that are grow-only sets (none by default).
    public init(growOnly: Set<String> = []) {
        growOnlyCollections = growOnly
    }

    /// True for a grow-only collection.
    public func isGrowOnly(_ collection: String) -> Bool {
        !growOnlyCollections.isEmpty && growOnlyCollections.contains(collection)
    }
}
