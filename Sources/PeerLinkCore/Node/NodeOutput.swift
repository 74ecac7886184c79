/// A connection's wire, held by reference in the engine's table.
final class WireBox {
    @exclusivity(unchecked) var wire = ConnectionWire()
}

/// What the engine asks its transport shell to do.
public enum NodeOutput: Sendable, Equatable {
    /// Write these bytes to the connection: one frame's records. The summary says what the
    /// frame was (for the simulator's timeline; the bytes are sealed), when the engine was
    /// asked for summaries (`summarizesFrames`).
    case send(ConnectionID, [UInt8], FrameSummary?)
    /// Close the connection (after writing what is queued).
    case close(ConnectionID, reason: String)
    /// A log line for the node's log.
    case log(LogLevel, String)
    /// The store failed to commit: the node must stop (nothing uncommitted was acknowledged).
    case fatal(String)
}

/// How the engine's store was found at launch.
public enum StoreOpening: Sendable, Equatable {
    case existing
    /// Found corrupt: moved aside (to `quarantinedAs`) and started empty.
    case resetAfterCorruption(reason: String, quarantinedAs: String)
}
