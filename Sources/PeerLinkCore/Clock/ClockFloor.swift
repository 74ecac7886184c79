/// A bound on the hybrid clock kept beside the store, in the node's files, so that it outlives
/// the store's damage: every timestamp the node ever issued or observed has `wallMs` below it.
///
/// Why: a store found corrupt starts from nothing, and a store that went back in time holds an
/// older clock. With a wall clock that is frozen or was set back, the new clock would issue
/// stamps the lost history already used — two different writes of one field with one stamp,
/// which last-writer-wins cannot order (seed 500862 of `fitness-widget-after-midnight`).
/// Started at or past the floor, the clock issues only stamps after every lost one.
///
/// A lease, as in Spanner's and CockroachDB's clock bounds: the floor moves `leaseMs` ahead of
/// the clock whenever the clock reaches it, written (and synced) before the commit that holds
/// such a stamp, so a node writes it about once a lease while it makes changes.
/// The file holds the floor as 8 bytes, big-endian milliseconds since 1970.
public struct ClockFloor: Sendable, Equatable {
    /// Where the floor lives in the node's files.
    public static let path = "clock/floor"
    /// How far ahead of the clock the floor is set when the clock reaches it.
    public static let leaseMs: Int64 = 60_000

    /// Every stamp issued or observed has `wallMs` below this (0: none written yet).
    public private(set) var floorMs: Int64

    public init(floorMs: Int64) { self.floorMs = floorMs }

    /// The floor in `files`; 0 when there is none or it does not read as one (a node that
    /// cannot read it only loses this guarantee).
    public static func load(_ files: any FileStorage) -> ClockFloor {
        guard let bytes = try? files.readAll(path), bytes.count == 8 else { return ClockFloor(floorMs: 0) }
        var r = ByteReader(bytes)
        return ClockFloor(floorMs: Int64(bitPattern: (try? r.readUInt64BE()) ?? 0))
    }

    /// True when a store's clock whose latest stamp is `last`, opened when the wall clock reads
    /// `wallMs`, may reissue stamps this node issued and lost:
    /// - the store is new (started after its predecessor was lost);
    /// - its clock is behind the lease, which the clock had reached when the floor was last
    ///   moved (it went back more than a lease);
    /// - or the wall clock is not past the store's clock (frozen, set back, or behind a peer's
    ///   stamps the clock followed): the clock would go on counting at `last.wallMs`, where a
    ///   store that went back less than a lease may have issued the very stamps it lost.
    ///   Moving to the floor then costs stamps at most a lease ahead, after such restarts only.
    ///   Open: a wall clock that froze or went back after the store's last durable commit, by
    ///   less than the time since it, reads past the store's clock and is not caught here
    ///   (docs/PROTOCOL.md, *The replicated state*).
    public func storeMayHaveLostStamps(last: HLCTimestamp, storeIsNew: Bool, wallMs: Int64) -> Bool {
        floorMs > 0 && (storeIsNew || last.wallMs < floorMs - Self.leaseMs || (wallMs <= last.wallMs && last.wallMs < floorMs))
    }

    /// The first stamp a clock that may have lost stamps starts from: after every one of them.
    public var restartStamp: HLCTimestamp { HLCTimestamp(wallMs: floorMs, counter: 0, replica: 0) }

    /// Moves the floor a lease ahead of the clock when the clock has reached it, writing it to
    /// `files` first. Returns false when the file could not be written (the floor stays).
    /// Called at every commit: the check stays inline, the write out of line.
    @inline(__always)
    public mutating func renew(clock last: HLCTimestamp, files: any FileStorage) -> Bool {
        guard last.wallMs > 0, last.wallMs >= floorMs else { return true }
        return write(last.wallMs + Self.leaseMs, files: files)
    }

    @inline(never)
    mutating func write(_ next: Int64, files: any FileStorage) -> Bool {
        var w = ByteWriter(capacity: 8)
        w.writeUInt64BE(UInt64(bitPattern: next))
        do {
            // Written beside it, then moved over it: a crash between leaves the old floor. (On
            // disk with `--sync full`, the move syncs the directories: see
            // `DirectoryFileStorage.move`.)
            try files.replaceAll(Self.path, with: w.bytes, through: Self.path + ".new")
        } catch {
            return false
        }
        floorMs = next
        return true
    }
}
