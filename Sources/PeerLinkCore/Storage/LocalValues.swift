/// An app's own durable values (not replicated) as the app sees them in memory: values, and
/// values written as their canonical bytes whose decoding waits until they are read.
///
/// A value stored on every event from bytes written straight from its fields (the watch's
/// workout snapshot, the phone's live view) is read back only when a node starts again — and
/// then it comes from the store, decoded. Building it as a `PlistValue` each time as well cost
/// as much as everything else the write did.
public struct LocalValues: Sendable {
    /// One key's value: as a value, or as canonical bytes not decoded yet. One dictionary for
    /// both, so a write hashes its key once.
    enum Stored: Sendable {
        case value(PlistValue)
        case encoded([UInt8])
    }

    var stored: [String: Stored] = [:]

    public init(_ values: [String: PlistValue] = [:]) {
        stored.reserveCapacity(values.count)
        for (k, v) in values { stored[k] = .value(v) }
    }

    /// The value under `key`; one written as bytes is decoded here (nil if its bytes do not
    /// decode, which bytes written by `CanonicalEncoding`'s rules always do).
    public subscript(key: String) -> PlistValue? {
        switch stored[key] {
        case .value(let v)?: v
        case .encoded(let b)?: try? CanonicalEncoding.decode(b)
        case nil: nil
        }
    }

    /// The canonical bytes of the value under `key` (encoded now if it was stored as a value).
    public func canonicalBytes(_ key: String) -> [UInt8]? {
        switch stored[key] {
        case .value(let v)?: CanonicalEncoding.encode(v)
        case .encoded(let b)?: b
        case nil: nil
        }
    }

    /// Every key that has a value.
    public var keys: [String] { Array(stored.keys) }

    /// All values, decoded (for reading a whole state at launch).
    public var dictionary: [String: PlistValue] {
        var d: [String: PlistValue] = [:]
        d.reserveCapacity(stored.count)
        for (k, s) in stored {
            switch s {
            case .value(let v): d[k] = v
            case .encoded(let b): d[k] = try? CanonicalEncoding.decode(b)
            }
        }
        return d
    }

    /// Sets (or with nil removes) a value.
    public mutating func set(_ key: String, _ value: PlistValue?) {
        stored[key] = value.map(Stored.value)
    }

    /// Sets a value given as its canonical bytes.
    public mutating func set(_ key: String, encoded bytes: [UInt8]) {
        stored[key] = .encoded(bytes)
    }
}
