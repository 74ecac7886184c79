/// Values by connection id, for the handful of connections a node has open at once (the
/// link, a handshake or two, a stranger's): the ids are kept in an array and searched in
/// order, which costs less than hashing one key with Swift's `Hasher` (SipHash, about 110
/// instructions an `Int`) until a map holds dozens. The engine's wires and the process
/// shell's sockets are looked up several times a frame.
///
/// Entries keep the order they were added in (removing one keeps the others' order).
public struct ConnectionMap<Value> {
    @usableFromInline var ids: [ConnectionID] = []
    /// The values, in the order of the ids: change them in place (`values[i].x = …`, with
    /// `i` from `index(forKey:)`), never add or remove any here.
    public var values: [Value] = []

    @inlinable public init() {}

    @inlinable public var count: Int { ids.count }
    @inlinable public var isEmpty: Bool { ids.isEmpty }
    /// The ids, in the order they were added.
    @inlinable public var keys: [ConnectionID] { ids }

    /// Where `id`'s value is in `values`, or nil.
    @inlinable public func index(forKey id: ConnectionID) -> Int? {
        var i = 0
        while i < ids.count {
            if ids[i] == id { return i }
            i += 1
        }
        return nil
    }

    /// `id`'s value; setting nil removes it, setting a value adds or replaces it.
    @inlinable public subscript(id: ConnectionID) -> Value? {
        get { index(forKey: id).map { values[$0] } }
        set {
            if let v = newValue {
                if let i = index(forKey: id) { values[i] = v } else { ids.append(id); values.append(v) }
            } else {
                removeValue(forKey: id)
            }
        }
    }

    /// Removes `id`'s value and returns it (nil when there was none).
    @inlinable @discardableResult public mutating func removeValue(forKey id: ConnectionID) -> Value? {
        guard let i = index(forKey: id) else { return nil }
        ids.remove(at: i)
        return values.remove(at: i)
    }

    /// The values transformed, by id.
    @inlinable public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> [ConnectionID: T] {
        var out: [ConnectionID: T] = [:]
        for (id, v) in zip(ids, values) { out[id] = try transform(v) }
        return out
    }
}

extension ConnectionMap: Sequence {
    /// The (id, value) pairs, in the order they were added.
    @inlinable public func makeIterator() -> Zip2Sequence<[ConnectionID], [Value]>.Iterator {
        zip(ids, values).makeIterator()
    }
}

extension ConnectionMap: Sendable where Value: Sendable {}
