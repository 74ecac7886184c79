/// An app's own durable values (not replicated) as the app sees them in memory: values, and
/// values written as their canonical bytes whose decoding waits until they are read.
///
/// A value stored on every event from bytes written straight from its fields (the watch's
/// workout snapshot, the phone's live view) is read back only when a node starts again — and
/// then it comes from the store, decoded. Building it as a `PlistValue` each time as well cost
/// as much as everything else the write did.
///
/// A key is its UTF-8 bytes, as its store row is: two canonically equivalent spellings
/// ("\u{e9}" and "e\u{301}"), equal as Swift strings, are two keys here as they are two rows,
/// and as they are two keys to `UserDefaults`, whose `NSString` keys compare literally.
/// (Before, the dictionary took them for one while the store kept both rows, and a launch
/// loaded whichever row came last.)
public struct LocalValues: Sendable {
    /// One key's value: as a value, or as canonical bytes not decoded yet. One dictionary for
    /// both, so a write hashes its key once.
    enum Stored: Sendable {
        case value(PlistValue)
        case encoded([UInt8])
    }

    var stored: [LocalKey: Stored] = [:]

    public init(_ values: [String: PlistValue] = [:]) {
        stored.reserveCapacity(values.count)
        for (k, v) in values { stored[LocalKey(k)] = .value(v) }
    }

    /// The value under `key`; one written as bytes is decoded here (nil if its bytes do not
    /// decode, which bytes written by `CanonicalEncoding`'s rules always do).
    public subscript(key: String) -> PlistValue? {
        switch stored[LocalKey(key)] {
        case .value(let v)?: v
        case .encoded(let b)?: try? CanonicalEncoding.decode(b)
        case nil: nil
        }
    }

    /// The canonical bytes of the value under `key` (encoded now if it was stored as a value).
    public func canonicalBytes(_ key: String) -> [UInt8]? {
        switch stored[LocalKey(key)] {
        case .value(let v)?: CanonicalEncoding.encode(v)
        case .encoded(let b)?: b
        case nil: nil
        }
    }

    /// Every key that has a value.
    public var keys: [String] { stored.keys.map(\.string) }

    /// All values, decoded (for reading a whole state at launch). A Swift dictionary takes
    /// canonically equivalent keys for one: such keys get the value of the spelling whose
    /// UTF-8 is last in byte order (ask `self[key]` for each spelling to tell them apart).
    public var dictionary: [String: PlistValue] {
        var d: [String: PlistValue] = [:]
        d.reserveCapacity(stored.count)
        for (k, s) in stored.sorted(by: { $0.key < $1.key }) {
            switch s {
            case .value(let v): d[k.string] = v
            case .encoded(let b): d[k.string] = try? CanonicalEncoding.decode(b)
            }
        }
        return d
    }

    /// Sets (or with nil removes) a value.
    public mutating func set(_ key: String, _ value: PlistValue?) {
        stored[LocalKey(key)] = value.map(Stored.value)
    }

    /// Sets a value given as its canonical bytes.
    public mutating func set(_ key: String, encoded bytes: [UInt8]) {
        stored[LocalKey(key)] = .encoded(bytes)
    }
}

/// A local value's key, equal to another by its UTF-8 bytes (a store row's key), not by
/// `String`'s canonical equivalence.
struct LocalKey: Hashable, Comparable, Sendable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (a: LocalKey, b: LocalKey) -> Bool { CanonicalEncoding.utf8Equal(a.string, b.string) }

    /// Byte order of the UTF-8 (the store's order of the rows).
    static func < (a: LocalKey, b: LocalKey) -> Bool { CanonicalEncoding.utf8Less(a.string, b.string) }

    /// The string's own hash: equal bytes are equal strings, so equal keys hash alike, and
    /// `String`'s hashing is quicker than hashing the bytes (two spellings of one string share
    /// a bucket and are told apart by `==`).
    func hash(into hasher: inout Hasher) { hasher.combine(string) }
}
