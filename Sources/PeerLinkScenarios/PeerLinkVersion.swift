/// The version of this build of PeerLink: `sync-sim --version` prints it and every sweep
/// report carries it (with the commit), so shards of different builds are never merged.
/// Raised by hand at each release (a commit between releases is told apart by its commit).
public enum PeerLinkVersion {
    public static let string = "0.20.0"
}
