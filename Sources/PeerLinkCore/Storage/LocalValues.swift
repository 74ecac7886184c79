/// An app's own durable values (not replicated) as the app sees them in memory: values, and
/// values written as their canonical bytes whose decoding waits until they are read.
///
/// A value stored on every event from bytes written straight from its fields (the watch's
/// workout snapshot, the phone's live view) is read back only when a node starts again — and
/// then it comes from the store, decoded. Building it as a `PlistValue` each time as well cost
/// as much as everything else the write did.
public struct LocalValues: Sendable {
    var values: [String: PlistValue]
    var encoded: [String: [UInt8]] = [:]

    public init(_ values: [String: PlistValue] = [:]) { self.values = values }

    /// The value under `key`; one written as bytes is decoded here (nil if its bytes do not
    /// decode, which bytes written by `CanonicalEncoding`'s rules always do).
    public subscript(key: String) -> PlistValue? {
        if let v = values[key] { return v }
        guard let b = encoded[key] else { return nil }
        return try? CanonicalEncoding.decode(b)
    }

    /// The canonical bytes of the value under `key` (encoded now if it was stored as a value).
    public func canonicalBytes(_ key: String) -> [UInt8]? {
        if let b = encoded[key] { return b }
        return values[key].map(CanonicalEncoding.encode)
    }

    /// Every key that has a value.
    public var keys: [String] { Array(values.keys) + Array(encoded.keys) }

    /// All values, decoded (for reading a whole state at launch).
    public var dictionary: [String: PlistValue] {
        var d = values
        for (k, b) in encoded { d[k] = try? CanonicalEncoding.decode(b) }
        return d
    }

    /// Sets (or with nil removes) a value.
    public mutating func set(_ key: String, _ value: PlistValue?) {
        encoded[key] = nil
        values[key] = value
    }

    /// Sets a value given as its canonical bytes.
    public mutating func set(_ key: String, encoded bytes: [UInt8]) {
        values[key] = nil
        encoded[key] = bytes
    }
}
